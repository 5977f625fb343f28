//! neverc-codegen: what every back end shares: the object file writer (ELF through the
//! `object` crate), call-frame information, module-level output (data objects,
//! aliases, constructor tables, the `-S` text's sections), and what inline asm lowering
//! shares (`inline_asm`: reading templates, `%N`, `%[name]`, modifiers, `%=`, dialect
//! alternatives; checking that the operands can have registers), and the -O0 register
//! allocator over the shared virtual-register code (`o0alloc`), with regalloc2's checker
//! run in an order it gets right (`ra_check`).

pub mod cfi;
pub mod inline_asm;
pub mod module;
pub mod o0alloc;
pub mod object_file;
pub mod ra_check;
pub mod reloc;
pub mod vcode;

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

impl Pic {
    /// May code address a symbol directly (PC-relative), rather than load its address
    /// from the GOT? Under PIE an external symbol's address comes from the GOT (a
    /// PC-relative reference to it cannot be linked); calls go through the PLT either way.
    pub fn reaches_directly(self, local: bool, defined: bool) -> bool {
        match self {
            Pic::NoPic => true,
            Pic::Pie => local || defined,
            Pic::Pic => local,
        }
    }
}
