use arch::code_object::CodeObject;
use sw::xlate::{translate, Binding};
fn main() {
    let verbose = std::env::args().nth(1);
    let dir = "tests/kernels/prebuilt/gfx803";
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for p in names {
        let elf = std::fs::read(&p).unwrap();
        let co = CodeObject::parse(&elf).unwrap();
        for k in co.kernels() {
            match translate(k, &Binding::of(k, 0)) {
                Ok(t) => {
                    println!(
                        "OK   {:20} in {:4} out {:4} removed {}",
                        k.name,
                        t.counts.instructions_in,
                        t.counts.instructions_out,
                        t.counts.removed
                    );
                    let hex: Vec<String> = t.code.iter().map(|b| format!("0x{b:02x}")).collect();
                    std::fs::write(format!("/tmp/xl_{}.hex", k.name), hex.join(" ")).unwrap();
                    std::fs::write(format!("/tmp/xl_{}.txt", k.name), t.listing().join("\n"))
                        .unwrap();
                    if verbose.as_deref() == Some(k.name.as_str()) {
                        for l in t.listing() {
                            println!("    {l}");
                        }
                    }
                }
                Err(e) => println!("FAIL {:20} {e}", k.name),
            }
        }
    }
}
