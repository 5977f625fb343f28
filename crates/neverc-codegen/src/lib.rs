//! neverc-codegen: what every back end shares: the object file writer (ELF through the
//! `object` crate) and call-frame information.

pub mod cfi;
pub mod object_file;
pub mod reloc;
