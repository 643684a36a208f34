//! The `gpusim` command-line tool.
fn main() {}
