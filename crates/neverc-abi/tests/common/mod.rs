pub mod gen;
pub mod machines;
