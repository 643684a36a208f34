//! `wq_bfs` (work creation): breadth-first search where each level's last
//! work-item launches the next level. The graph is a fixed pseudo-random CSR
//! graph built at compile time; some vertices are unreachable.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 512;
const MAX_LEVELS: usize = 62;
const INF: u32 = u32::MAX;

const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Out-degree of vertex `v`: 1 to 4.
const fn degree(v: usize) -> usize {
    1 + (mix(v as u64) % 4) as usize
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
            c[e] = mix((v as u64) << 8 | k as u64 | 0x5000_0000) % N as u64;
            e += 1;
            k += 1;
        }
        v += 1;
    }
    c
};

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "wq_bfs",
    summary: "work creation: BFS, each level launches the next frontier",
    launch: crate::Launch {
        dims: dims1(1, 1),
        args: &[
            input("row_ptr", U32, N + 1, Init::Values(&ROW_PTR)),
            input("cols", U32, EDGES, Init::Values(&COLS)),
            inout("dist", U32, N, Init::Fill(INF as u64), Compare::Exact),
            inout(
                "frontier",
                U32,
                2 * N,
                Init::Fill(INF as u64),
                Compare::Exact,
            ),
            output("ctl", U32, 2 + MAX_LEVELS, Compare::Exact),
            uint("n", N as u32),
            uint("source", 0),
        ],
    },
    reference,
};

fn reference(_dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = scalar_u32(args, 5)? as usize;
    let source = scalar_u32(args, 6)? as usize;
    if source >= n {
        return Err(bad(KERNEL.name, "source is not a vertex"));
    }
    let row_ptr = buffer::<u32>(args, 0, n + 1)?.to_vec();
    let edges = row_ptr[n] as usize;
    let cols = buffer::<u32>(args, 1, edges)?.to_vec();
    let mut dist = vec![INF; n];
    dist[source] = 0;
    let mut frontier = vec![source];
    let mut arrivals = Vec::new();
    let mut level = 0u32;
    while !frontier.is_empty() {
        arrivals.push(frontier.len().div_ceil(64) as u32 * 64);
        let mut next = Vec::new();
        for &v in &frontier {
            for &u in &cols[row_ptr[v] as usize..row_ptr[v + 1] as usize] {
                let u = u as usize;
                if u >= n {
                    return Err(bad(KERNEL.name, "edge to a vertex out of range"));
                }
                if dist[u] == INF {
                    dist[u] = level + 1;
                    next.push(u);
                }
            }
        }
        frontier = next;
        level += 1;
    }
    buffer_mut::<u32>(args, 2, n)?[..n].copy_from_slice(&dist);
    // Every frontier slot written was consumed (reset to INF).
    buffer_mut::<u32>(args, 3, 2 * n)?.fill(INF);
    let ctl_len = match &args[4] {
        ArgValue::Buffer(b) => b.len(),
        _ => 0,
    };
    if 2 + arrivals.len() > ctl_len {
        return Err(bad(KERNEL.name, "more levels than `ctl` can count"));
    }
    let ctl = buffer_mut::<u32>(args, 4, ctl_len)?;
    ctl[0] = 0;
    ctl[1] = 0;
    ctl[2..2 + arrivals.len()].copy_from_slice(&arrivals);
    Ok(())
}
