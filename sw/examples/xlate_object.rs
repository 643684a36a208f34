//! `cargo run -p sw --example xlate_object -- LEGACY.hsaco NEW.hsaco`:
//! translates a gfx803 code object to a gfx1030 code object v5 (the core of
//! `gpusim translate`).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: xlate_object LEGACY.hsaco NEW.hsaco");
        std::process::exit(2);
    };
    let result = std::fs::read(input)
        .map_err(|e| format!("{input}: {e}"))
        .and_then(|elf| sw::xlate::translate_object(&elf).map_err(|e| format!("{input}: {e}")))
        .and_then(|new| std::fs::write(output, new).map_err(|e| format!("{output}: {e}")));
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
