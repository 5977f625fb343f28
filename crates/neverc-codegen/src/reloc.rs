//! Symbol references and relocation kinds shared by every encoder and the object writer.

/// A symbol of the object being built, by index into the module's symbol list (the object
/// writer owns the names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymId(pub u32);

/// What a fixup asks the linker to compute (ELF x86-64 names; other targets add theirs).
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
