//! The machine of a target row, for tests.
#![allow(dead_code)]

use neverc_abi::Machine;

pub fn machine(triple: &str) -> Machine {
    neverc_target::lookup(triple)
        .unwrap_or_else(|e| panic!("{e}"))
        .into()
}
