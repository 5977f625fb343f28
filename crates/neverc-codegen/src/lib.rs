//! neverc-codegen: what every back end shares: the object file writer (ELF through the
//! `object` crate), call-frame information, and module-level output (data objects,
//! aliases, constructor tables, the `-S` text's sections).

pub mod cfi;
pub mod module;
pub mod object_file;
pub mod reloc;
pub mod vcode;
