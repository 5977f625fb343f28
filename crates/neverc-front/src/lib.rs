//! neverc-front: lexer, preprocessor, parser, semantic analysis and diagnostics.
