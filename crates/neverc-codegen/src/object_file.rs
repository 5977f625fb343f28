//! The object-file writer every back end shares: a target-neutral description of one
//! translation unit's sections, symbols and relocations (`ObjectModule`) and its lowering to an
//! ELF relocatable object through the `object` crate.
//!
//! The module keeps its own plain vectors and only builds an `object::write::Object` in
//! [`ObjectModule::write`]: symbols may be defined after they are referenced, and the choice
//! of "section symbol + addend" versus "the symbol itself" for a relocation can only be made
//! once every definition is known. Everything is kept in insertion order, so the same module
//! always gives the same bytes.

use std::collections::HashMap;

use object::elf;
use object::write::{Object, Relocation, Symbol, SymbolSection};
use object::{
    Architecture, BinaryFormat, Endianness, FileFlags, RelocationFlags, SectionFlags, SymbolFlags,
    SymbolKind, SymbolScope,
};

use crate::reloc::{Fixup, RelocKind, SymId};

/// Instruction-set architecture of the object. x86-64 and AArch64 have relocations mapped; the
/// others exist so the ELF header and section layout are ready when their encoders arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjArch {
    X86_64,
    AArch64,
    RiscV32,
    RiscV64,
    Arm,
    Mips,
    Mips64,
    Avr,
}

/// The target an object is written for: architecture, byte order and the ELF `e_flags`
/// (ABI bits such as the RISC-V float ABI or the ARM EABI version).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjTarget {
    pub arch: ObjArch,
    pub big_endian: bool,
    pub e_flags: u32,
}

impl ObjTarget {
    /// x86-64 System V (little-endian, `e_flags` 0).
    pub fn x86_64() -> Self {
        ObjTarget {
            arch: ObjArch::X86_64,
            big_endian: false,
            e_flags: 0,
        }
    }

    /// AArch64 little-endian (LP64, `e_flags` 0).
    pub fn aarch64() -> Self {
        ObjTarget {
            arch: ObjArch::AArch64,
            big_endian: false,
            e_flags: 0,
        }
    }

    /// Whether the object is ELFCLASS64.
    pub fn is_64(&self) -> bool {
        matches!(
            self.arch,
            ObjArch::X86_64 | ObjArch::AArch64 | ObjArch::RiscV64 | ObjArch::Mips64
        )
    }

    fn architecture(&self) -> Architecture {
        match self.arch {
            ObjArch::X86_64 => Architecture::X86_64,
            ObjArch::AArch64 => Architecture::Aarch64,
            ObjArch::RiscV32 => Architecture::Riscv32,
            ObjArch::RiscV64 => Architecture::Riscv64,
            ObjArch::Arm => Architecture::Arm,
            ObjArch::Mips => Architecture::Mips,
            ObjArch::Mips64 => Architecture::Mips64,
            ObjArch::Avr => Architecture::Avr,
        }
    }

    /// The ELF `r_type` for a relocation kind on this target.
    fn elf_reloc_type(&self, kind: RelocKind) -> Result<u32, String> {
        match self.arch {
            ObjArch::X86_64 => Ok(match kind {
                RelocKind::Abs64 => elf::R_X86_64_64,
                RelocKind::Abs32 => elf::R_X86_64_32,
                RelocKind::Abs32S => elf::R_X86_64_32S,
                RelocKind::Pc32 => elf::R_X86_64_PC32,
                RelocKind::Plt32 => elf::R_X86_64_PLT32,
                RelocKind::GotPcRel => elf::R_X86_64_GOTPCREL,
                RelocKind::RexGotPcRelX => elf::R_X86_64_REX_GOTPCRELX,
                RelocKind::GotPcRelX => elf::R_X86_64_GOTPCRELX,
                RelocKind::GotTpOff => elf::R_X86_64_GOTTPOFF,
                RelocKind::TpOff32 => elf::R_X86_64_TPOFF32,
                RelocKind::Pc64 => elf::R_X86_64_PC64,
                RelocKind::Aarch64(r) => {
                    return Err(format!("relocation {r:?} does not exist on x86-64"))
                }
            }
            .0),
            ObjArch::AArch64 => match kind {
                RelocKind::Abs64 => Ok(elf::R_AARCH64_ABS64.0),
                RelocKind::Abs32 => Ok(elf::R_AARCH64_ABS32.0),
                RelocKind::Pc32 => Ok(elf::R_AARCH64_PREL32.0),
                RelocKind::Pc64 => Ok(elf::R_AARCH64_PREL64.0),
                RelocKind::Aarch64(r) => Ok(r.elf_type()),
                other => Err(format!("relocation {other:?} does not exist on AArch64")),
            },
            other => Err(format!("relocation {kind:?} is not mapped for {other:?}")),
        }
    }
}

/// Whether the linker may see a relocation against a file-local symbol as "section symbol +
/// offset" instead (gas's `fix_adjustable`). GOT, PLT and TLS relocations keep the symbol:
/// the linker keys GOT/PLT entries and TLS offsets by symbol.
fn adjustable(kind: RelocKind) -> bool {
    !matches!(
        kind,
        RelocKind::Plt32
            | RelocKind::GotPcRel
            | RelocKind::RexGotPcRelX
            | RelocKind::GotPcRelX
            | RelocKind::GotTpOff
            | RelocKind::TpOff32
    ) && !matches!(kind, RelocKind::Aarch64(r) if r.keeps_symbol())
}

fn is_tls_reloc(kind: RelocKind) -> bool {
    matches!(kind, RelocKind::GotTpOff | RelocKind::TpOff32)
        || matches!(kind, RelocKind::Aarch64(r) if r.is_tls())
}

/// A section of the module, by index in creation order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SectionId(pub u32);

/// What a section holds; decides its ELF type and flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionKind {
    /// `.text`: `SHF_ALLOC | SHF_EXECINSTR`.
    Text,
    /// `.data`: writable.
    Data,
    /// `.rodata`: read-only.
    ReadOnlyData,
    /// `.data.rel.ro`: read-only after relocation (constant data holding pointers when PIC).
    ReadOnlyDataWithRel,
    /// `.rodata.str1.N`: NUL-terminated strings the linker may merge (`SHF_MERGE |
    /// SHF_STRINGS`, entry size 1).
    ReadOnlyStrings,
    /// `.bss`: `SHT_NOBITS`, only a size.
    Bss,
    /// `.tdata`: initialized thread-local data.
    TlsData,
    /// `.tbss`: zero-initialized thread-local data, `SHT_NOBITS`.
    TlsBss,
    /// `.init_array`: constructor pointers.
    InitArray,
    /// `.fini_array`: destructor pointers.
    FiniArray,
    /// `.eh_frame`: call-frame information (see `cfi`).
    EhFrame,
    /// A section named by `__attribute__((section("x")))`: flags as gcc gives them, from
    /// what the first object placed there is (see [`SectionKind::user`]).
    User {
        code: bool,
        writable: bool,
        nobits: bool,
        tls: bool,
    },
}

impl SectionKind {
    /// The kind gcc gives a named section from the first declaration placed in it: code for
    /// a function, read-only for a const object, writable otherwise; a name starting with
    /// `.bss`/`.sbss`/`.tbss` makes it `SHT_NOBITS`, `.tdata`/`.tbss` makes it TLS.
    pub fn user(name: &str, holds_function: bool, read_only: bool) -> SectionKind {
        let starts = |p: &str| name == p || name.starts_with(&format!("{p}."));
        let tls = starts(".tdata") || starts(".tbss");
        let nobits = starts(".bss") || starts(".sbss") || starts(".tbss");
        SectionKind::User {
            code: holds_function,
            writable: !holds_function && (!read_only || tls || nobits),
            nobits: !holds_function && nobits,
            tls: !holds_function && tls,
        }
    }

    /// The conventional name of a section of this kind (`None` for user sections).
    pub fn base_name(self) -> Option<&'static str> {
        Some(match self {
            SectionKind::Text => ".text",
            SectionKind::Data => ".data",
            SectionKind::ReadOnlyData => ".rodata",
            SectionKind::ReadOnlyDataWithRel => ".data.rel.ro",
            SectionKind::ReadOnlyStrings => ".rodata.str1.1",
            SectionKind::Bss => ".bss",
            SectionKind::TlsData => ".tdata",
            SectionKind::TlsBss => ".tbss",
            SectionKind::InitArray => ".init_array",
            SectionKind::FiniArray => ".fini_array",
            SectionKind::EhFrame => ".eh_frame",
            SectionKind::User { .. } => return None,
        })
    }

    /// Whether the section holds thread-local storage (`SHF_TLS`).
    pub fn is_tls(self) -> bool {
        matches!(
            self,
            SectionKind::TlsData | SectionKind::TlsBss | SectionKind::User { tls: true, .. }
        )
    }

    /// Whether the section has a size but no bytes.
    pub fn is_nobits(self) -> bool {
        matches!(
            self,
            SectionKind::Bss | SectionKind::TlsBss | SectionKind::User { nobits: true, .. }
        )
    }

    fn elf_flags(self) -> (u32, u64) {
        let (a, w, x, t) = (
            elf::SHF_ALLOC.0,
            elf::SHF_WRITE.0,
            elf::SHF_EXECINSTR.0,
            elf::SHF_TLS.0,
        );
        let progbits = elf::SHT_PROGBITS.0;
        let nobits = elf::SHT_NOBITS.0;
        match self {
            SectionKind::Text => (progbits, a | x),
            SectionKind::Data | SectionKind::ReadOnlyDataWithRel => (progbits, a | w),
            SectionKind::ReadOnlyData => (progbits, a),
            SectionKind::ReadOnlyStrings => (progbits, a | elf::SHF_MERGE.0 | elf::SHF_STRINGS.0),
            SectionKind::Bss => (nobits, a | w),
            SectionKind::TlsData => (progbits, a | w | t),
            SectionKind::TlsBss => (nobits, a | w | t),
            SectionKind::InitArray => (elf::SHT_INIT_ARRAY.0, a | w),
            SectionKind::FiniArray => (elf::SHT_FINI_ARRAY.0, a | w),
            // gas writes PROGBITS for the .eh_frame it builds from .cfi directives.
            SectionKind::EhFrame => (progbits, a),
            SectionKind::User {
                code,
                writable,
                nobits: nb,
                tls,
            } => {
                let mut f = a;
                if code {
                    f |= x;
                }
                if writable {
                    f |= w;
                }
                if tls {
                    f |= t;
                }
                (if nb { nobits } else { progbits }, f)
            }
        }
    }

    /// The `object` kind: its entry-size rule (strings get 1) and whether it takes bytes.
    fn object_kind(self) -> object::SectionKind {
        match self {
            _ if self.is_nobits() => object::SectionKind::UninitializedData,
            SectionKind::Text => object::SectionKind::Text,
            SectionKind::ReadOnlyStrings => object::SectionKind::ReadOnlyString,
            _ => object::SectionKind::Data,
        }
    }
}

/// ELF symbol type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymKind {
    Func,
    Object,
    Tls,
    NoType,
}

/// ELF symbol binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    Local,
    Global,
    Weak,
}

/// ELF symbol visibility (`st_other`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    Default,
    Hidden,
    Protected,
    Internal,
}

/// How a defined symbol appears in the symbol table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymbolInfo {
    pub kind: SymKind,
    pub binding: Binding,
    pub visibility: Visibility,
}

impl SymbolInfo {
    pub fn new(kind: SymKind, binding: Binding) -> Self {
        SymbolInfo {
            kind,
            binding,
            visibility: Visibility::Default,
        }
    }
    pub fn global_func() -> Self {
        Self::new(SymKind::Func, Binding::Global)
    }
    pub fn local_func() -> Self {
        Self::new(SymKind::Func, Binding::Local)
    }
    pub fn global_object() -> Self {
        Self::new(SymKind::Object, Binding::Global)
    }
    pub fn local_object() -> Self {
        Self::new(SymKind::Object, Binding::Local)
    }
    pub fn with_visibility(self, visibility: Visibility) -> Self {
        SymbolInfo { visibility, ..self }
    }
}

#[derive(Clone, Debug)]
enum SymDef {
    Undefined,
    Defined {
        section: SectionId,
        offset: u64,
        size: u64,
    },
    Common {
        size: u64,
        align: u64,
    },
    Alias(SymId),
}

#[derive(Clone, Debug)]
struct SymData {
    /// Empty for anonymous labels.
    name: String,
    def: SymDef,
    info: SymbolInfo,
    /// `set_weak`: a weak reference, or a weak definition.
    weak: bool,
    /// `set_visibility` on a symbol not (yet) defined.
    visibility: Option<Visibility>,
}

impl SymData {
    /// Labels and local `.L` names never reach the symbol table unless a relocation must
    /// keep them.
    fn is_assembler_local(&self) -> bool {
        (self.name.is_empty() || self.name.starts_with(".L"))
            && !matches!(self.def, SymDef::Undefined)
            && self.info.binding == Binding::Local
    }
}

#[derive(Clone, Debug)]
struct SectionData {
    name: String,
    kind: SectionKind,
    align: u64,
    data: Vec<u8>,
    /// Size of a nobits section.
    bss_size: u64,
    relocs: Vec<(u64, SymId, RelocKind, i64)>,
}

/// Where a symbol resolves to after following aliases.
#[derive(Clone, Copy, Debug)]
enum Resolved {
    Undefined,
    Common {
        size: u64,
        align: u64,
    },
    Defined {
        section: SectionId,
        offset: u64,
        size: u64,
    },
}

/// Name to section or symbol: looked up, never iterated (so the hash cannot change output).
type NameMap<V> = HashMap<String, V, neverc_ir::NameHash>;

/// One translation unit's object file, being built.
#[derive(Clone, Debug)]
pub struct ObjectModule {
    target: ObjTarget,
    sections: Vec<SectionData>,
    section_by_name: NameMap<SectionId>,
    symbols: Vec<SymData>,
    symbol_by_name: NameMap<SymId>,
    file_name: Option<String>,
    comment: Option<String>,
}

impl ObjectModule {
    pub fn new(target: ObjTarget) -> Self {
        ObjectModule {
            target,
            sections: Vec::new(),
            section_by_name: NameMap::default(),
            symbols: Vec::new(),
            symbol_by_name: NameMap::default(),
            file_name: None,
            comment: None,
        }
    }

    pub fn target(&self) -> ObjTarget {
        self.target
    }

    /// The `STT_FILE` symbol gcc emits (the source file name).
    pub fn set_file_name(&mut self, name: &str) {
        self.file_name = Some(name.to_string());
    }

    /// A `.comment` section holding this string (e.g. "neverc 0.1").
    pub fn set_comment(&mut self, comment: &str) {
        self.comment = Some(comment.to_string());
    }

    // ----- sections -----

    /// The section with this name, created with `kind` and `align` if it does not exist yet;
    /// an existing one keeps its kind and has its alignment raised to at least `align`.
    pub fn add_section(&mut self, name: &str, kind: SectionKind, align: u64) -> SectionId {
        if let Some(&id) = self.section_by_name.get(name) {
            let s = &mut self.sections[id.0 as usize];
            s.align = s.align.max(align.max(1));
            return id;
        }
        let id = SectionId(self.sections.len() as u32);
        self.sections.push(SectionData {
            name: name.to_string(),
            kind,
            align: align.max(1),
            data: Vec::new(),
            bss_size: 0,
            relocs: Vec::new(),
        });
        self.section_by_name.insert(name.to_string(), id);
        id
    }

    /// The standard section of a kind (`.text`, `.data`, ...). Panics for `User`.
    pub fn standard_section(&mut self, kind: SectionKind) -> SectionId {
        self.standard_section_aligned(kind, 1)
    }

    /// As [`standard_section`](Self::standard_section), its alignment raised to at least
    /// `align`.
    pub fn standard_section_aligned(&mut self, kind: SectionKind, align: u64) -> SectionId {
        let name = kind
            .base_name()
            .expect("user sections have no standard name");
        let min = match kind {
            SectionKind::InitArray | SectionKind::FiniArray | SectionKind::EhFrame => 8,
            _ => 1,
        };
        self.add_section(name, kind, align.max(min))
    }

    /// The per-symbol section for -ffunction-sections / -fdata-sections: `.text.NAME`,
    /// `.data.NAME`, `.rodata.NAME`, `.bss.NAME`, `.tdata.NAME`, `.data.rel.ro.NAME`, ...
    pub fn symbol_section(&mut self, kind: SectionKind, sym_name: &str, align: u64) -> SectionId {
        let base = match kind {
            // Strings keep the merge section; a per-symbol .rodata is not mergeable.
            SectionKind::ReadOnlyStrings => ".rodata",
            _ => kind
                .base_name()
                .expect("user sections have no per-symbol name"),
        };
        let kind = match kind {
            SectionKind::ReadOnlyStrings => SectionKind::ReadOnlyData,
            k => k,
        };
        self.add_section(&format!("{base}.{sym_name}"), kind, align)
    }

    pub fn section_by_name(&self, name: &str) -> Option<SectionId> {
        self.section_by_name.get(name).copied()
    }

    pub fn section_name(&self, section: SectionId) -> &str {
        &self.sections[section.0 as usize].name
    }

    pub fn section_kind(&self, section: SectionId) -> SectionKind {
        self.sections[section.0 as usize].kind
    }

    /// Current size of a section (bytes so far, or the nobits size).
    pub fn section_size(&self, section: SectionId) -> u64 {
        let s = &self.sections[section.0 as usize];
        if s.kind.is_nobits() {
            s.bss_size
        } else {
            s.data.len() as u64
        }
    }

    /// The bytes appended so far (for patching after layout, e.g. a back end's own fixups).
    pub fn section_data_mut(&mut self, section: SectionId) -> &mut Vec<u8> {
        &mut self.sections[section.0 as usize].data
    }

    /// Append bytes at the next multiple of `align` and return their offset. Padding is
    /// zeros, or `nop`s in x86 and AArch64 code sections (so disassembly between functions
    /// stays sane, and as gas pads).
    pub fn append(&mut self, section: SectionId, bytes: &[u8], align: u64) -> u64 {
        let code = matches!(
            self.sections[section.0 as usize].kind,
            SectionKind::Text | SectionKind::User { code: true, .. }
        );
        let pad = match (self.target.arch, code) {
            (ObjArch::X86_64, true) => 0x90,
            _ => 0,
        };
        let a64_nops = code && self.target.arch == ObjArch::AArch64;
        let s = &mut self.sections[section.0 as usize];
        assert!(
            !s.kind.is_nobits(),
            "append to nobits section {}; use append_bss",
            s.name
        );
        let align = align.max(1);
        s.align = s.align.max(align);
        let offset = (s.data.len() as u64).next_multiple_of(align);
        if a64_nops && s.data.len().is_multiple_of(4) && offset.is_multiple_of(4) {
            while (s.data.len() as u64) < offset {
                s.data.extend_from_slice(&0xd503_201fu32.to_le_bytes());
            }
        }
        s.data.resize(offset as usize, pad);
        s.data.extend_from_slice(bytes);
        offset
    }

    /// Append an encoder's output and its fixups (offsets relative to `bytes`); returns the
    /// offset of `bytes` in the section.
    pub fn append_with_fixups(
        &mut self,
        section: SectionId,
        bytes: &[u8],
        align: u64,
        fixups: &[Fixup],
    ) -> u64 {
        let offset = self.append(section, bytes, align);
        self.add_fixups(section, offset, fixups);
        offset
    }

    /// Reserve `size` zero bytes in a nobits section and return their offset.
    pub fn append_bss(&mut self, section: SectionId, size: u64, align: u64) -> u64 {
        let s = &mut self.sections[section.0 as usize];
        assert!(
            s.kind.is_nobits(),
            "append_bss to section {} with bytes",
            s.name
        );
        let align = align.max(1);
        s.align = s.align.max(align);
        let offset = s.bss_size.next_multiple_of(align);
        s.bss_size = offset + size;
        offset
    }

    // ----- symbols -----

    /// The symbol of this name: the same SymId every time; an undefined reference until it
    /// is defined.
    pub fn declare(&mut self, name: &str) -> SymId {
        if let Some(&id) = self.symbol_by_name.get(name) {
            return id;
        }
        let id = self.push_symbol(name.to_string());
        self.symbol_by_name.insert(name.to_string(), id);
        id
    }

    fn push_symbol(&mut self, name: String) -> SymId {
        let id = SymId(self.symbols.len() as u32);
        self.symbols.push(SymData {
            name,
            def: SymDef::Undefined,
            info: SymbolInfo::new(SymKind::NoType, Binding::Global),
            weak: false,
            visibility: None,
        });
        id
    }

    /// How many symbols were declared (every `SymId` is below it).
    pub fn symbol_count(&self) -> usize {
        self.symbols.len()
    }

    pub fn lookup(&self, name: &str) -> Option<SymId> {
        self.symbol_by_name.get(name).copied()
    }

    pub fn symbol_name(&self, sym: SymId) -> &str {
        &self.symbols[sym.0 as usize].name
    }

    /// A section-local label (like gas's `.L` names): an anonymous local symbol that never
    /// appears in the symbol table; relocations against it become section symbol + offset.
    pub fn label(&mut self, section: SectionId, offset: u64) -> SymId {
        let id = self.push_symbol(String::new());
        let s = &mut self.symbols[id.0 as usize];
        s.def = SymDef::Defined {
            section,
            offset,
            size: 0,
        };
        s.info = SymbolInfo::new(SymKind::NoType, Binding::Local);
        id
    }

    /// An ELF mapping symbol (`$d` before data in code, `$x` where A64 code resumes, as
    /// the AArch64 ELF ABI asks and gas writes): local, no type, in the symbol table.
    pub fn mapping_symbol(&mut self, section: SectionId, offset: u64, name: &str) {
        let id = self.push_symbol(name.to_string());
        let s = &mut self.symbols[id.0 as usize];
        s.def = SymDef::Defined {
            section,
            offset,
            size: 0,
        };
        s.info = SymbolInfo::new(SymKind::NoType, Binding::Local);
    }

    fn check_undefined(&self, sym: SymId) -> Result<&SymData, String> {
        let s = self
            .symbols
            .get(sym.0 as usize)
            .ok_or_else(|| format!("unknown symbol id {}", sym.0))?;
        if !matches!(s.def, SymDef::Undefined) {
            return Err(format!("symbol `{}` is defined twice", s.name));
        }
        Ok(s)
    }

    /// Define a symbol at `offset` in `section`. A local binding whose name starts with `.L`
    /// behaves as a label (not in the symbol table).
    pub fn define(
        &mut self,
        sym: SymId,
        section: SectionId,
        offset: u64,
        size: u64,
        info: SymbolInfo,
    ) -> Result<(), String> {
        self.check_undefined(sym)?;
        if section.0 as usize >= self.sections.len() {
            return Err(format!("unknown section id {}", section.0));
        }
        if info.kind == SymKind::Tls && !self.sections[section.0 as usize].kind.is_tls() {
            return Err(format!(
                "thread-local `{}` outside a TLS section",
                self.symbols[sym.0 as usize].name
            ));
        }
        let s = &mut self.symbols[sym.0 as usize];
        s.def = SymDef::Defined {
            section,
            offset,
            size,
        };
        s.info = info;
        Ok(())
    }

    /// A common symbol (-fcommon tentative definition): `SHN_COMMON`, value = alignment.
    pub fn define_common(&mut self, sym: SymId, size: u64, align: u64) -> Result<(), String> {
        self.check_undefined(sym)?;
        if !align.is_power_of_two() {
            return Err(format!("common alignment {align} is not a power of two"));
        }
        let s = &mut self.symbols[sym.0 as usize];
        s.def = SymDef::Common { size, align };
        s.info = SymbolInfo::global_object();
        Ok(())
    }

    /// `sym` names the same place (section, offset, size) as `target`, which may be defined
    /// before or after; `info` gives the alias's own type, binding and visibility.
    pub fn define_alias(
        &mut self,
        sym: SymId,
        target: SymId,
        info: SymbolInfo,
    ) -> Result<(), String> {
        self.check_undefined(sym)?;
        if target.0 as usize >= self.symbols.len() || target == sym {
            return Err(format!("bad alias target for `{}`", self.symbol_name(sym)));
        }
        let s = &mut self.symbols[sym.0 as usize];
        s.def = SymDef::Alias(target);
        s.info = info;
        Ok(())
    }

    /// Make a reference weak (`STB_WEAK` undefined: resolves to 0 when absent), or a
    /// definition weak whatever binding `define` gives it (`#pragma weak`).
    pub fn set_weak(&mut self, sym: SymId) {
        self.symbols[sym.0 as usize].weak = true;
    }

    /// Visibility for a symbol, also when it stays undefined (`extern int x
    /// __attribute__((visibility("hidden")))` gives a hidden `UND` entry, as gas does).
    pub fn set_visibility(&mut self, sym: SymId, visibility: Visibility) {
        self.symbols[sym.0 as usize].visibility = Some(visibility);
    }

    /// Section and offset of a defined symbol (following aliases).
    pub fn symbol_location(&self, sym: SymId) -> Option<(SectionId, u64)> {
        match self.resolve(sym).ok()? {
            Resolved::Defined {
                section, offset, ..
            } => Some((section, offset)),
            _ => None,
        }
    }

    fn resolve(&self, sym: SymId) -> Result<Resolved, String> {
        let mut cur = sym;
        for _ in 0..=self.symbols.len() {
            match self.symbols[cur.0 as usize].def {
                SymDef::Undefined => return Ok(Resolved::Undefined),
                SymDef::Common { size, align } => return Ok(Resolved::Common { size, align }),
                SymDef::Defined {
                    section,
                    offset,
                    size,
                } => {
                    return Ok(Resolved::Defined {
                        section,
                        offset,
                        size,
                    })
                }
                SymDef::Alias(t) => cur = t,
            }
        }
        Err(format!(
            "alias cycle through `{}`",
            self.symbols[sym.0 as usize].name
        ))
    }

    fn binding(&self, sym: SymId) -> Binding {
        let s = &self.symbols[sym.0 as usize];
        match s.def {
            SymDef::Undefined => {
                if s.weak {
                    Binding::Weak
                } else {
                    Binding::Global
                }
            }
            _ if s.weak && s.info.binding != Binding::Local => Binding::Weak,
            _ => s.info.binding,
        }
    }

    // ----- relocations -----

    /// A relocation at `fixup.offset` in `section`.
    pub fn add_reloc(&mut self, section: SectionId, fixup: Fixup) {
        self.add_reloc_at(section, fixup.offset as u64, fixup);
    }

    /// The fixups an encoder returned for bytes appended at `base` in `section`.
    pub fn add_fixups(&mut self, section: SectionId, base: u64, fixups: &[Fixup]) {
        for f in fixups {
            self.add_reloc_at(section, base + f.offset as u64, *f);
        }
    }

    fn add_reloc_at(&mut self, section: SectionId, offset: u64, f: Fixup) {
        self.sections[section.0 as usize]
            .relocs
            .push((offset, f.sym, f.kind, f.addend));
    }

    // ----- writing -----

    /// The ELF relocatable object.
    pub fn write(&self) -> Result<Vec<u8>, String> {
        self.write_with(self.sections.iter().map(|s| s.data.clone()).collect())
    }

    /// As [`write`](Self::write), consuming the module: the section bytes move into the
    /// object writer instead of being copied.
    pub fn into_elf(mut self) -> Result<Vec<u8>, String> {
        let data = self
            .sections
            .iter_mut()
            .map(|s| std::mem::take(&mut s.data))
            .collect();
        self.write_with(data)
    }

    /// The object, with `data[i]` the bytes of section `i` (its `data` or a copy).
    fn write_with(&self, data: Vec<Vec<u8>>) -> Result<Vec<u8>, String> {
        let t = self.target;
        let endian = if t.big_endian {
            Endianness::Big
        } else {
            Endianness::Little
        };
        let mut obj = Object::new(BinaryFormat::Elf, t.architecture(), endian);
        obj.flags = FileFlags::Elf {
            os_abi: elf::ELFOSABI_NONE,
            abi_version: 0,
            e_flags: elf::FileFlags(t.e_flags),
        };
        if let Some(f) = &self.file_name {
            obj.add_file_symbol(f.as_bytes().to_vec());
        }

        // Sections, in creation order, then the ones every gcc object has.
        let mut osec = Vec::with_capacity(self.sections.len());
        for (s, bytes) in self.sections.iter().zip(data) {
            let len = bytes.len() as u64;
            let id = obj.add_section(Vec::new(), s.name.as_bytes().to_vec(), s.kind.object_kind());
            let (sh_type, sh_flags) = s.kind.elf_flags();
            let sec = obj.section_mut(id);
            sec.flags = SectionFlags::Elf {
                sh_type: elf::SectionType(sh_type),
                sh_flags: elf::SectionFlags(sh_flags),
            };
            if s.kind.is_nobits() {
                sec.append_bss(s.bss_size, s.align);
            } else {
                sec.set_data(bytes, s.align);
            }
            if !s.relocs.is_empty() && s.kind.is_nobits() {
                return Err(format!("relocation in nobits section {}", s.name));
            }
            for &(offset, _, kind, _) in &s.relocs {
                let width = match kind {
                    RelocKind::Abs64 | RelocKind::Pc64 => 8,
                    _ => 4,
                };
                if offset + width > len {
                    return Err(format!(
                        "relocation at {offset} past the end of {} ({len} bytes)",
                        s.name,
                    ));
                }
            }
            osec.push(id);
        }

        // Which relocations go through the section symbol, and which symbols they need.
        let mut resolved = Vec::with_capacity(self.symbols.len());
        for (i, s) in self.symbols.iter().enumerate() {
            let r = self.resolve(SymId(i as u32))?;
            // gcc rejects an alias to something this unit does not define; so do we.
            if matches!(s.def, SymDef::Alias(_)) && !matches!(r, Resolved::Defined { .. }) {
                return Err(format!("alias `{}` to a symbol not defined here", s.name));
            }
            resolved.push(r);
        }
        let mut referenced = vec![false; self.symbols.len()];
        let mut tls_referenced = vec![false; self.symbols.len()];
        let via_section = |sym: SymId, kind: RelocKind, addend: i64| -> bool {
            let Resolved::Defined { section, .. } = resolved[sym.0 as usize] else {
                return false;
            };
            if self.binding(sym) != Binding::Local {
                return false;
            }
            // In a mergeable section the linker finds the piece from section + addend, so
            // (as gas) only a zero addend may move onto the section symbol.
            if self.sections[section.0 as usize].kind == SectionKind::ReadOnlyStrings && addend != 0
            {
                return false;
            }
            let assembler_local = self.symbols[sym.0 as usize].is_assembler_local();
            adjustable(kind) || (assembler_local && !is_tls_reloc(kind))
        };
        for s in &self.sections {
            for &(_, sym, kind, addend) in &s.relocs {
                let i = sym.0 as usize;
                if i >= self.symbols.len() {
                    return Err(format!("relocation in {} against unknown symbol", s.name));
                }
                if !via_section(sym, kind, addend) {
                    referenced[i] = true;
                }
                if is_tls_reloc(kind) {
                    tls_referenced[i] = true;
                }
            }
        }

        // Symbols, in creation order (object puts the locals first when writing).
        let mut osym = vec![None; self.symbols.len()];
        for (i, s) in self.symbols.iter().enumerate() {
            let id = SymId(i as u32);
            let binding = self.binding(id);
            let r = resolved[i];
            let emit = match r {
                Resolved::Undefined => {
                    if binding == Binding::Local {
                        if referenced[i] {
                            return Err(format!("local symbol `{}` is never defined", s.name));
                        }
                        false
                    } else {
                        referenced[i] || s.weak
                    }
                }
                _ => !s.is_assembler_local() || referenced[i],
            };
            if !emit {
                continue;
            }
            let name = if s.name.is_empty() {
                format!(".L.neverc.{i}")
            } else {
                s.name.clone()
            };
            let vis = s.visibility.unwrap_or(s.info.visibility);
            let (section, value, size, st_type) = match r {
                Resolved::Undefined => (
                    SymbolSection::Undefined,
                    0,
                    0,
                    if tls_referenced[i] || s.info.kind == SymKind::Tls {
                        elf::STT_TLS
                    } else {
                        elf::STT_NOTYPE
                    },
                ),
                Resolved::Common { size, align } => {
                    (SymbolSection::Common, align, size, elf::STT_OBJECT)
                }
                Resolved::Defined {
                    section,
                    offset,
                    size,
                } => (
                    SymbolSection::Section(osec[section.0 as usize]),
                    offset,
                    size,
                    match s.info.kind {
                        SymKind::Func => elf::STT_FUNC,
                        SymKind::Object => elf::STT_OBJECT,
                        SymKind::Tls => elf::STT_TLS,
                        SymKind::NoType => elf::STT_NOTYPE,
                    },
                ),
            };
            let st_bind = match binding {
                Binding::Local => elf::STB_LOCAL,
                Binding::Global => elf::STB_GLOBAL,
                Binding::Weak => elf::STB_WEAK,
            };
            let st_vis = match vis {
                Visibility::Default => elf::STV_DEFAULT,
                Visibility::Hidden => elf::STV_HIDDEN,
                Visibility::Protected => elf::STV_PROTECTED,
                Visibility::Internal => elf::STV_INTERNAL,
            };
            // The ELF type is in `flags` (st_info); the `object` writer then uses `kind` only
            // to index Text/Data/Tls symbols by name (a copy of the name and a SipHash insert
            // each), for lookups this module never makes. Label skips that.
            let kind = SymbolKind::Label;
            let scope = match (binding, vis) {
                (Binding::Local, _) => SymbolScope::Compilation,
                (_, Visibility::Hidden | Visibility::Internal) => SymbolScope::Linkage,
                _ => SymbolScope::Dynamic,
            };
            osym[i] = Some(obj.add_symbol(Symbol {
                name: name.into_bytes(),
                value,
                size,
                kind,
                scope,
                weak: binding == Binding::Weak,
                section,
                flags: SymbolFlags::Elf {
                    st_info: st_bind | st_type,
                    st_other: st_vis.into(),
                },
            }));
        }

        // Relocations.
        for (si, s) in self.sections.iter().enumerate() {
            for &(offset, sym, kind, addend) in &s.relocs {
                let r_type = t.elf_reloc_type(kind)?;
                let (symbol, addend) = if via_section(sym, kind, addend) {
                    let Resolved::Defined {
                        section,
                        offset: sym_off,
                        ..
                    } = resolved[sym.0 as usize]
                    else {
                        unreachable!("via_section needs a definition")
                    };
                    let ss = obj.section_symbol(osec[section.0 as usize]);
                    (ss, addend.wrapping_add(sym_off as i64))
                } else {
                    (
                        osym[sym.0 as usize].expect("referenced symbol emitted"),
                        addend,
                    )
                };
                obj.add_relocation(
                    osec[si],
                    Relocation {
                        offset,
                        symbol,
                        addend,
                        flags: RelocationFlags::Elf {
                            r_type: elf::RelocationType(r_type),
                        },
                    },
                )
                .map_err(|e| e.to_string())?;
            }
        }

        if let Some(c) = &self.comment {
            // gcc's `.ident`: a leading NUL then the string, mergeable.
            let id = obj.add_section(
                Vec::new(),
                b".comment".to_vec(),
                object::SectionKind::OtherString,
            );
            let sec = obj.section_mut(id);
            sec.flags = SectionFlags::Elf {
                sh_type: elf::SHT_PROGBITS,
                sh_flags: elf::SectionFlags(elf::SHF_MERGE.0 | elf::SHF_STRINGS.0),
            };
            let mut bytes = vec![0u8];
            bytes.extend_from_slice(c.as_bytes());
            bytes.push(0);
            sec.set_data(bytes, 1);
        }
        // The stack need not be executable.
        let id = obj.add_section(
            Vec::new(),
            b".note.GNU-stack".to_vec(),
            object::SectionKind::Other,
        );
        obj.section_mut(id).flags = SectionFlags::Elf {
            sh_type: elf::SHT_PROGBITS,
            sh_flags: elf::SectionFlags(0),
        };

        obj.write().map_err(|e| e.to_string())
    }
}
