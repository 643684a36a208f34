//! Hostile input ends in a diagnostic, never a stack overflow or a hang:
//! deep nesting of every recursive construct, on a 2 MiB thread (the
//! default stack of a spawned Rust thread, smaller than a main thread's).

use compiler::front::{compile_to_typed_ast, Options, Source};

fn run_small_stack(src: String) -> Result<(), String> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            compile_to_typed_ast(
                Source::Text {
                    name: "t.cl",
                    text: &src,
                },
                &Options::default(),
            )
            .map(|_| ())
            .map_err(|d| d.message)
        })
        .expect("spawn")
        .join()
        .expect("no panic")
}

fn kernel(body: &str) -> String {
    format!("kernel void k(global int *p) {{ int x = 1; {body} }}")
}

#[test]
fn deep_nesting_is_diagnosed_not_a_crash() {
    let n = 100_000;
    let cases = [
        kernel(&format!("p[0] = {}x{};", "(".repeat(n), ")".repeat(n))),
        kernel(&format!("p[0] = {}x;", "-".repeat(n))),
        kernel(&format!("p[0] = {}x;", "(int)".repeat(n))),
        kernel(&format!("p[0] = x{};", " + x".repeat(n))),
        kernel(&format!("p[0] = (x{});", ", x".repeat(n))),
        kernel(&format!("p[0] = x{};", " = x".repeat(n))),
        kernel(&format!("p[0] = x{};", " ? x : x".repeat(n))),
        kernel(&format!("{} p[0] = x; {}", "{".repeat(n), "}".repeat(n))),
        kernel(&format!("{} p[0] = x;", "if (x) ".repeat(n))),
        kernel(&format!("int {}q = 0;", "*".repeat(n))),
        kernel(&format!("int q{};", "[1]".repeat(n))),
        kernel(&format!("p{}[0] = x;", "[0]".repeat(n))),
        format!(
            "#if {}1{}\n#endif\nkernel void k() {{}}",
            "(".repeat(n),
            ")".repeat(n)
        ),
        format!(
            "#define A(x) x\nkernel void k(global int *p) {{ p[0] = {}1{}; }}",
            "A(".repeat(n / 10),
            ")".repeat(n / 10)
        ),
    ];
    for (i, c) in cases.into_iter().enumerate() {
        match run_small_stack(c) {
            Err(m) => assert!(
                m.contains("too deeply nested") || m.contains("nesting is too deep"),
                "case {i}: {m}"
            ),
            Ok(()) => panic!("case {i} compiled"),
        }
    }
}

#[test]
fn nesting_just_under_the_limit_compiles() {
    // Close to the parser's limit, every kind of nesting still fits a 2 MiB stack.
    for src in [
        kernel(&format!("p[0] = {}x{};", "(".repeat(190), ")".repeat(190))),
        kernel(&format!("p[0] = {}x;", "- ".repeat(390))),
        kernel(&format!("p[0] = x{};", " + x".repeat(390))),
        kernel(&format!(
            "{} p[0] = x; {}",
            "{".repeat(390),
            "}".repeat(390)
        )),
        kernel(&format!("{} p[0] = x;", "if (x) ".repeat(390))),
        kernel(&format!("p[0] = x{};", " ? x : x".repeat(390))),
    ] {
        run_small_stack(src).expect("compiles");
    }
}
