//! Translation throughput and linearity (issue 9: >= 10 M legacy
//! instructions/s; time linear in program size from 10^3 to 10^6).
//! `cargo bench -p sw --bench xlate`.

use std::time::Instant;

use arch::isa::{assemble, Target};
use sw::xlate::{translate_code, Binding};

/// A block of 8 typical instructions: carries, memory, a branch, a wait, a mac.
const BLOCK: &str = "
    v_add_u32_e32 v0, vcc, s8, v0
    v_addc_u32_e32 v1, vcc, v1, v2, vcc
    flat_load_dword v3, v[0:1]
    s_cmp_eq_u32 s0, 0
    s_cbranch_scc1 2
    flat_store_dword v[0:1], v3
    s_waitcnt vmcnt(0) lgkmcnt(0)
    v_mac_f32_e32 v4, v3, v3
";

fn main() {
    let block = match assemble(Target::GFX803, BLOCK) {
        Ok(b) => b,
        Err(e) => return eprintln!("{e}"),
    };
    let end = [0x00, 0x00, 0x81, 0xbf]; // s_endpgm
    println!("| legacy instructions | ms | M instructions/s | out/in |");
    println!("|---:|---:|---:|---:|");
    for blocks in [125usize, 1_250, 12_500, 125_000] {
        let mut code = Vec::with_capacity(block.len() * blocks + 4);
        for _ in 0..blocks {
            code.extend_from_slice(&block);
        }
        code.extend_from_slice(&end);
        let runs = (1_000_000 / (blocks * 8)).clamp(1, 100);
        let start = Instant::now();
        let mut last = None;
        for _ in 0..runs {
            last = Some(translate_code(&code, &Binding::default()));
        }
        let secs = start.elapsed().as_secs_f64() / runs as f64;
        match last {
            Some(Ok(t)) => println!(
                "| {} | {:.3} | {:.1} | {:.3} |",
                t.counts.instructions_in,
                secs * 1e3,
                t.counts.instructions_in as f64 / secs / 1e6,
                t.counts.instructions_out as f64 / t.counts.instructions_in as f64
            ),
            Some(Err(e)) => println!("error: {e}"),
            None => {}
        }
    }
}
