//! Translates every gfx803 corpus kernel and prints its counts and
//! expansion ratio (`cargo run -p sw --example xlate_corpus [-- KERNEL]`;
//! naming a kernel also prints its gfx1030 listing).

use arch::code_object::CodeObject;
use sw::xlate::{translate, Binding};

fn main() {
    let show = std::env::args().nth(1);
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/kernels/prebuilt/gfx803"
    );
    let mut paths: Vec<_> = match std::fs::read_dir(dir) {
        Ok(d) => d.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => return eprintln!("{dir}: {e}"),
    };
    paths.sort();
    println!("| kernel | in | removed | out | ratio | bytes out |");
    println!("|---|---:|---:|---:|---:|---:|");
    for p in paths {
        let co = match std::fs::read(&p)
            .map_err(|e| e.to_string())
            .and_then(|elf| CodeObject::parse(&elf).map_err(|e| e.to_string()))
        {
            Ok(co) => co,
            Err(e) => {
                eprintln!("{}: {e}", p.display());
                continue;
            }
        };
        for k in co.kernels() {
            match translate(k, &Binding::of(k, 0)) {
                Ok(t) => {
                    let c = t.counts;
                    println!(
                        "| {} | {} | {} | {} | {:.2} | {} |",
                        k.name,
                        c.instructions_in,
                        c.removed,
                        c.instructions_out,
                        c.instructions_out as f64 / c.instructions_in as f64,
                        c.bytes_out
                    );
                    if show.as_deref() == Some(k.name.as_str()) {
                        for l in t.listing() {
                            println!("    {l}");
                        }
                    }
                }
                Err(e) => println!("| {} | error: {e} |", k.name),
            }
        }
    }
}
