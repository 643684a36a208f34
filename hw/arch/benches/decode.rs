//! Decoder throughput (filled in with the decoder).
fn main() {}
