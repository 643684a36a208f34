//! Compiles one OpenCL C file once with the default options (what `gpusim
//! compile` does, without the driver): for profiling the compiler alone,
//!
//!     valgrind --tool=callgrind target/release/examples/compile_once FILE.cl

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: compile_once FILE.cl");
    let text = std::fs::read_to_string(&path).expect("readable source");
    let o = compiler::CompileOptions::default();
    match compiler::compile(
        compiler::Source::Text {
            name: &path,
            text: &text,
        },
        &o,
    ) {
        Ok(c) => println!("{} kernels", c.kernels.len()),
        Err(d) => {
            eprintln!("{d}");
            std::process::exit(1);
        }
    }
}
