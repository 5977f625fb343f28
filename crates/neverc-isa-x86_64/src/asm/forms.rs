//! Every instruction form the encoder can emit, for the referee test (tests/referee.rs),
//! which compares `encode` with llvm-mc and GNU as byte for byte.

use super::inst::*;

/// All forms (to be filled).
pub fn all_forms() -> Vec<Inst> {
    Vec::new()
}
