//! neverc-front: the compiler's front end. It owns the source map, the lexer, the
//! preprocessor (translation phases 1-4), diagnostics in gcc's layout and, as they grow,
//! the parser and semantic analysis.

pub mod diag;
pub mod features;
pub mod lex;
pub mod parse;
pub mod pp;
pub mod sema;
pub mod source;
pub mod token;
