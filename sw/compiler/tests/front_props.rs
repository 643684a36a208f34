//! Property: any text gives a typed AST or a well-formed diagnostic whose
//! location is inside the input — never a panic. (The long random runs
//! are `examples/front_fuzz.rs`; this keeps a small always-on version.)

use compiler::front::{compile_to_typed_ast, Options, Source};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "kernel",
    "void",
    "int",
    "uint4",
    "float",
    "bool4",
    "__global",
    "__local",
    "const",
    "struct",
    "typedef",
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "case",
    "return",
    "x",
    "p",
    "0",
    "1u",
    "2.5f",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    ".",
    "->",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    "<",
    "==",
    "&",
    "&&",
    "!",
    "~",
    "?",
    ":",
    "=",
    "+=",
    "++",
    "#define",
    "#if",
    "#endif",
    "\n",
    ".xy",
    "get_global_id",
    "barrier",
    "atomic_add",
    "select",
    "vload4",
    "##",
    "#",
];

fn check(text: &str) {
    if let Err(d) = compile_to_typed_ast(Source::Text { name: "p.cl", text }, &Options::default()) {
        let shown = d.to_string();
        assert!(
            shown.starts_with(&format!("p.cl:{}:{}: error: ", d.line, d.col)),
            "{shown}"
        );
        assert!(
            d.line as usize <= text.lines().count() + 1,
            "line {} beyond the input",
            d.line
        );
        assert_eq!(shown.lines().count(), 3, "{shown}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn token_soup_never_panics(words in proptest::collection::vec(0..WORDS.len(), 0..120)) {
        let body: Vec<&str> = words.iter().map(|&i| WORDS[i]).collect();
        check(&format!("kernel void k(__global int *p) {{ {} }}", body.join(" ")));
        check(&body.join(" "));
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[ -~\n\t]{0,300}") {
        check(&text);
    }
}
