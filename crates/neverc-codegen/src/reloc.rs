//! Symbol references and relocation kinds shared by every encoder and the object writer.

/// A symbol of the object being built, by index into the module's symbol list (the object
/// writer owns the names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymId(pub u32);

/// What a fixup asks the linker to compute (ELF x86-64 names for the shared kinds; AArch64
/// instruction fields in `Aarch64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RelocKind {
    /// S + A, 64 bits (`R_X86_64_64`): pointers in data.
    Abs64,
    /// S + A, 32 bits zero-extended (`R_X86_64_32`).
    Abs32,
    /// S + A, 32 bits sign-extended (`R_X86_64_32S`).
    Abs32S,
    /// S + A - P, 32 bits (`R_X86_64_PC32`): rip-relative data, local calls.
    Pc32,
    /// L + A - P (`R_X86_64_PLT32`): calls.
    Plt32,
    /// G + GOT + A - P (`R_X86_64_GOTPCREL`).
    GotPcRel,
    /// `R_X86_64_REX_GOTPCRELX`: `movq sym@GOTPCREL(%rip), %reg` with a REX prefix.
    RexGotPcRelX,
    /// `R_X86_64_GOTPCRELX`: the same without a REX prefix (call/jmp *sym@GOTPCREL(%rip)).
    GotPcRelX,
    /// `R_X86_64_GOTTPOFF`: initial-exec TLS, `movq sym@GOTTPOFF(%rip), %reg`.
    GotTpOff,
    /// `R_X86_64_TPOFF32`: local-exec TLS, offset from the thread pointer.
    TpOff32,
    /// S + A - P, 64 bits (`R_X86_64_PC64`).
    Pc64,
    /// An AArch64 instruction-field relocation. (Data relocations on AArch64 use the shared
    /// kinds: `Abs64` is `R_AARCH64_ABS64`, `Abs32` `R_AARCH64_ABS32`, `Pc32`
    /// `R_AARCH64_PREL32`, `Pc64` `R_AARCH64_PREL64`.)
    Aarch64(Aarch64Reloc),
}

/// The AArch64 relocations of instruction fields (ELF for the Arm 64-bit Architecture,
/// section 5.7); the names are the ELF ones without `R_AARCH64_`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Aarch64Reloc {
    /// `adrp`: page of S + A minus page of P (`ADR_PREL_PG_HI21`).
    AdrPrelPgHi21,
    /// `adr`: S + A - P, 21 bits (`ADR_PREL_LO21`).
    AdrPrelLo21,
    /// `add ..., :lo12:sym` (`ADD_ABS_LO12_NC`).
    AddAbsLo12Nc,
    /// `ldr`/`str` of 1, 2, 4, 8 or 16 bytes with `:lo12:sym` (`LDST8_ABS_LO12_NC` ...
    /// `LDST128_ABS_LO12_NC`); the field holds the byte size.
    LdstAbsLo12Nc(u8),
    /// `bl sym` (`CALL26`).
    Call26,
    /// `b sym` (`JUMP26`).
    Jump26,
    /// `b.cond`, `cbz`, `cbnz` (`CONDBR19`).
    CondBr19,
    /// `tbz`, `tbnz` (`TSTBR14`).
    TstBr14,
    /// `ldr` of a literal (`LD_PREL_LO19`).
    LdPrelLo19,
    /// `adrp x, :got:sym` (`ADR_GOT_PAGE`).
    AdrGotPage,
    /// `ldr x, [x, :got_lo12:sym]` (`LD64_GOT_LO12_NC`).
    Ld64GotLo12Nc,
    /// `adrp x, :gottprel:sym` (`TLSIE_ADR_GOTTPREL_PAGE21`).
    TlsIeAdrGotTprelPage21,
    /// `ldr x, [x, :gottprel_lo12:sym]` (`TLSIE_LD64_GOTTPREL_LO12_NC`).
    TlsIeLd64GotTprelLo12Nc,
    /// `add x, x, :tprel_hi12:sym, lsl #12` (`TLSLE_ADD_TPREL_HI12`).
    TlsLeAddTprelHi12,
    /// `add x, x, :tprel_lo12_nc:sym` (`TLSLE_ADD_TPREL_LO12_NC`).
    TlsLeAddTprelLo12Nc,
}

impl Aarch64Reloc {
    /// The ELF `r_type`.
    pub fn elf_type(self) -> u32 {
        match self {
            Aarch64Reloc::AdrPrelPgHi21 => 275,
            Aarch64Reloc::AdrPrelLo21 => 274,
            Aarch64Reloc::AddAbsLo12Nc => 277,
            Aarch64Reloc::LdstAbsLo12Nc(1) => 278,
            Aarch64Reloc::LdstAbsLo12Nc(2) => 284,
            Aarch64Reloc::LdstAbsLo12Nc(4) => 285,
            Aarch64Reloc::LdstAbsLo12Nc(8) => 286,
            Aarch64Reloc::LdstAbsLo12Nc(_) => 299,
            Aarch64Reloc::Call26 => 283,
            Aarch64Reloc::Jump26 => 282,
            Aarch64Reloc::CondBr19 => 280,
            Aarch64Reloc::TstBr14 => 279,
            Aarch64Reloc::LdPrelLo19 => 273,
            Aarch64Reloc::AdrGotPage => 311,
            Aarch64Reloc::Ld64GotLo12Nc => 312,
            Aarch64Reloc::TlsIeAdrGotTprelPage21 => 541,
            Aarch64Reloc::TlsIeLd64GotTprelLo12Nc => 542,
            Aarch64Reloc::TlsLeAddTprelHi12 => 549,
            Aarch64Reloc::TlsLeAddTprelLo12Nc => 551,
        }
    }

    /// The ELF name, `R_AARCH64_...`.
    pub fn elf_name(self) -> &'static str {
        match self {
            Aarch64Reloc::AdrPrelPgHi21 => "R_AARCH64_ADR_PREL_PG_HI21",
            Aarch64Reloc::AdrPrelLo21 => "R_AARCH64_ADR_PREL_LO21",
            Aarch64Reloc::AddAbsLo12Nc => "R_AARCH64_ADD_ABS_LO12_NC",
            Aarch64Reloc::LdstAbsLo12Nc(1) => "R_AARCH64_LDST8_ABS_LO12_NC",
            Aarch64Reloc::LdstAbsLo12Nc(2) => "R_AARCH64_LDST16_ABS_LO12_NC",
            Aarch64Reloc::LdstAbsLo12Nc(4) => "R_AARCH64_LDST32_ABS_LO12_NC",
            Aarch64Reloc::LdstAbsLo12Nc(8) => "R_AARCH64_LDST64_ABS_LO12_NC",
            Aarch64Reloc::LdstAbsLo12Nc(_) => "R_AARCH64_LDST128_ABS_LO12_NC",
            Aarch64Reloc::Call26 => "R_AARCH64_CALL26",
            Aarch64Reloc::Jump26 => "R_AARCH64_JUMP26",
            Aarch64Reloc::CondBr19 => "R_AARCH64_CONDBR19",
            Aarch64Reloc::TstBr14 => "R_AARCH64_TSTBR14",
            Aarch64Reloc::LdPrelLo19 => "R_AARCH64_LD_PREL_LO19",
            Aarch64Reloc::AdrGotPage => "R_AARCH64_ADR_GOT_PAGE",
            Aarch64Reloc::Ld64GotLo12Nc => "R_AARCH64_LD64_GOT_LO12_NC",
            Aarch64Reloc::TlsIeAdrGotTprelPage21 => "R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21",
            Aarch64Reloc::TlsIeLd64GotTprelLo12Nc => "R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC",
            Aarch64Reloc::TlsLeAddTprelHi12 => "R_AARCH64_TLSLE_ADD_TPREL_HI12",
            Aarch64Reloc::TlsLeAddTprelLo12Nc => "R_AARCH64_TLSLE_ADD_TPREL_LO12_NC",
        }
    }

    /// Relocations the linker keys by symbol (GOT and TLS): never rewritten against a
    /// section symbol.
    pub fn keeps_symbol(self) -> bool {
        matches!(
            self,
            Aarch64Reloc::AdrGotPage
                | Aarch64Reloc::Ld64GotLo12Nc
                | Aarch64Reloc::TlsIeAdrGotTprelPage21
                | Aarch64Reloc::TlsIeLd64GotTprelLo12Nc
                | Aarch64Reloc::TlsLeAddTprelHi12
                | Aarch64Reloc::TlsLeAddTprelLo12Nc
        )
    }

    pub fn is_tls(self) -> bool {
        matches!(
            self,
            Aarch64Reloc::TlsIeAdrGotTprelPage21
                | Aarch64Reloc::TlsIeLd64GotTprelLo12Nc
                | Aarch64Reloc::TlsLeAddTprelHi12
                | Aarch64Reloc::TlsLeAddTprelLo12Nc
        )
    }
}

/// A place in emitted bytes the linker must patch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixup {
    /// Byte offset of the patched field from the start of the emitted bytes.
    pub offset: u32,
    pub sym: SymId,
    pub kind: RelocKind,
    pub addend: i64,
}
