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
    let (mut tokens, mut lits, pragmas, locs) = conv.run(pp);
    // The converter and the parser reserve room for the whole unit up front, from the size
    // of the main file, so that their vectors are never copied as they grow; what a phase
    // did not use is given back when it ends, for the next phase to allocate in. (The
    // allocator advises huge pages: reserved room left between live blocks would be
    // faulted in, and zeroed by the kernel, with its neighbours.)
    tokens.shrink_to_fit();
    lits.release_spare();
    let queued = std::mem::take(&mut conv.queued);
    let mut p = parser::Parser::new(pp, tokens, lits, pragmas, locs, queued);
    p.translation_unit();
    let mut ast = p.finish();
    ast.release_spare();
    ast
}
