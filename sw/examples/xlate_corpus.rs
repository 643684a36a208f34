//! Translates every gfx803 corpus kernel and prints its counts and
//! expansion ratio (`cargo run -p sw --example xlate_corpus [-- KERNEL]`;
//! naming a kernel also prints its gfx1030 listing; `-- --table` prints
//! each legacy opcode reached and the gfx1030 mnemonics it became).

use std::collections::BTreeMap;

use arch::code_object::CodeObject;
use arch::isa::{decode, decode_all, Target};
use sw::xlate::{translate, Binding, Translated, OUTPUT};

/// Legacy mnemonic (with encoding) → the distinct gfx1030 sequences it became.
type Table = BTreeMap<String, BTreeMap<String, u32>>;

fn mnemonic(text: &str) -> String {
    text.split_whitespace().next().unwrap_or("").to_string()
}

fn record(table: &mut Table, code: &[u8], t: &Translated) {
    for (k, &(legacy, out)) in t.offset_map.iter().enumerate() {
        let Ok(inst) = decode(Target::GFX803, &code[legacy as usize..]) else {
            continue;
        };
        let end = t
            .offset_map
            .get(k + 1)
            .map_or(t.code.len(), |m| m.1 as usize);
        let seq = decode_all(OUTPUT, &t.code[out as usize..end])
            .map(|v| {
                v.iter()
                    .map(|(_, i)| mnemonic(&i.to_string()))
                    .collect::<Vec<_>>()
                    .join(" ; ")
            })
            .unwrap_or_else(|e| format!("<{e}>"));
        let seq = if seq.is_empty() {
            "(nothing)".to_string()
        } else {
            seq
        };
        *table
            .entry(mnemonic(&inst.to_string()))
            .or_default()
            .entry(seq)
            .or_default() += 1;
    }
}

fn main() {
    let show = std::env::args().nth(1);
    let tabulate = show.as_deref() == Some("--table");
    let mut table = Table::new();
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
                    record(&mut table, &k.code, &t);
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
    if tabulate {
        println!();
        for (legacy, seqs) in &table {
            let all: Vec<String> = seqs.iter().map(|(s, n)| format!("{s} ({n})")).collect();
            println!("| `{legacy}` | {} |", all.join("; "));
        }
    }
}
