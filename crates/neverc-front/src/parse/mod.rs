//! The parser: C tokens from the preprocessor's output ([`ctok`]), the syntax tree
//! ([`ast`]), a hand-written recursive-descent parser for C17 with the GNU extensions
//! ([`parser`], with expressions in `expr.rs` and statements in `stmt.rs`), and a text dump
//! of the tree for tests and `-fdump-ast` ([`dump`]).

pub mod ast;
pub mod ctok;
pub mod dump;
mod expr;
pub mod parser;
mod stmt;

use crate::pp::Preprocessor;

/// Parses the whole translation unit the preprocessor is reading. Errors are reported
/// through the preprocessor's diagnostics; the tree is returned even then (with error
/// nodes where parsing failed).
pub fn parse(pp: &mut Preprocessor) -> ast::Ast {
    let mut conv = ctok::Converter::new(pp);
    let (tokens, lits, pragmas, locs) = conv.run(pp);
    let queued = std::mem::take(&mut conv.queued);
    let mut p = parser::Parser::new(pp, tokens, lits, pragmas, locs, queued);
    p.translation_unit();
    p.finish()
}
