//! `bfs_relax`: one pull-style relaxation sweep of a breadth-first search
//! over a CSR graph (`dist_out[v] = min(dist_in[v], 1 + min over neighbours
//! u of dist_in[u])`, `changed[0] = 1` when a distance dropped). Exact.
//! Iterated with ping-pong buffers until `changed` stays 0, it is a whole
//! BFS (`workloads/programs/*/bfs.yaml`). The default launch is one sweep
//! over a fixed pseudo-random graph with a source every 64 vertices.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 256;
const INF: u32 = u32::MAX;

const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Degree of vertex `v`: 0 to 3 (some vertices have no in-edges to pull from).
const fn degree(v: usize) -> usize {
    (mix(v as u64 ^ 0x77) % 4) as usize
}

const EDGES: usize = {
    let mut m = 0;
    let mut v = 0;
    while v < N {
        m += degree(v);
        v += 1;
    }
    m
};

const ROW_PTR: [u64; N + 1] = {
    let mut r = [0u64; N + 1];
    let mut v = 0;
    while v < N {
        r[v + 1] = r[v] + degree(v) as u64;
        v += 1;
    }
    r
};

const COLS: [u64; EDGES] = {
    let mut c = [0u64; EDGES];
    let mut v = 0;
    let mut e = 0;
    while v < N {
        let mut k = 0;
        while k < degree(v) {
            c[e] = mix((v as u64) << 8 | k as u64 | 0x6100_0000) % N as u64;
            e += 1;
            k += 1;
        }
        v += 1;
    }
    c
};

/// Sources (distance 0) every 64 vertices, everything else unreached.
const DIST0: [u64; N] = {
    let mut d = [INF as u64; N];
    let mut v = 0;
    while v < N {
        d[v] = 0;
        v += 64;
    }
    d
};

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "bfs_relax",
    summary: "one pull-style BFS relaxation sweep over a CSR graph (iterated: a whole BFS)",
    launch: crate::Launch {
        dims: dims1(N as u32, 64),
        args: &[
            input("row_ptr", U32, N + 1, Init::Values(&ROW_PTR)),
            input("cols", U32, EDGES, Init::Values(&COLS)),
            input("dist_in", U32, N, Init::Values(&DIST0)),
            output("dist_out", U32, N, Compare::Exact),
            output("changed", U32, 1, Compare::Exact),
            uint("n", N as u32),
        ],
    },
    reference,
};

fn reference(_dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = scalar_u32(args, 5)? as usize;
    let row_ptr = buffer::<u32>(args, 0, n + 1)?.to_vec();
    let edges = row_ptr[n] as usize;
    if row_ptr.windows(2).any(|w| w[0] > w[1]) {
        return Err(bad(KERNEL.name, "row_ptr is not ascending"));
    }
    let cols = buffer::<u32>(args, 1, edges)?.to_vec();
    let dist_in = buffer::<u32>(args, 2, n)?.to_vec();
    let mut any = false;
    let mut out = vec![0u32; n];
    for v in 0..n {
        let mut best = dist_in[v];
        for &u in &cols[row_ptr[v] as usize..row_ptr[v + 1] as usize] {
            let d = *dist_in
                .get(u as usize)
                .ok_or_else(|| bad(KERNEL.name, "edge to a vertex out of range"))?;
            if d != INF && d + 1 < best {
                best = d + 1;
            }
        }
        any |= best != dist_in[v];
        out[v] = best;
    }
    buffer_mut::<u32>(args, 3, n)?[..n].copy_from_slice(&out);
    if any {
        buffer_mut::<u32>(args, 4, 1)?[0] = 1;
    }
    Ok(())
}
