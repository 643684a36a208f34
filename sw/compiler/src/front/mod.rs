//! Front end: preprocessor, lexer, parser, semantic analysis (typed AST).
