mod backend_support;
#[test]
fn probe() {
    let src = std::env::var("PROBE").unwrap();
    let k = backend_support::build_kernel(&src, false);
    println!("{}", k.listing());
}
