use arch::isa::*;
fn main() {
    let src = std::env::args().nth(1).unwrap();
    let t = if std::env::args().nth(2).as_deref() == Some("10") {
        Target::GFX1030_W64
    } else {
        Target::GFX803
    };
    let bytes = assemble(t, &src).unwrap();
    for (_, i) in decode_all(t, &bytes).unwrap() {
        println!("{i}\n{:?}", i);
    }
}
