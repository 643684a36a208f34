//! Control-flow facts: reverse post-order, dominators and post-dominators
//! (Cooper, Harvey & Kennedy's iterative algorithm — near linear on the
//! reducible, structured graphs OpenCL produces) and natural loops.

use super::entities::Block;
use super::function::Function;

/// Control-flow analysis of one function.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Successors per block (arena index).
    pub succs: Vec<Vec<Block>>,
    /// Predecessors per block.
    pub preds: Vec<Vec<Block>>,
    /// Blocks reachable from the entry in reverse post-order.
    pub rpo: Vec<Block>,
    /// Immediate dominator per block (`None` for the entry and unreachable blocks).
    pub idom: Vec<Option<Block>>,
    /// Immediate post-dominator per block (`None` for exits, or when the
    /// block reaches no exit).
    pub ipdom: Vec<Option<Block>>,
    /// Back edges `(latch, header)`: edges to a block that dominates the source.
    pub back_edges: Vec<(Block, Block)>,
    /// Pre- and post-order numbers of each block in the dominator tree
    /// (`u32::MAX` when unreachable): `a` dominates `b` exactly when `b`'s
    /// interval nests in `a`'s — a constant-time query, where walking the
    /// `idom` chain would be linear in the tree's depth (a long chain of ifs).
    dom_pre: Vec<u32>,
    dom_post: Vec<u32>,
}

const NONE: usize = usize::MAX;

/// Immediate dominators over a graph given as successor lists from `roots`
/// (a virtual root joins several roots), by the iterative algorithm.
fn dominators(
    n: usize,
    succs: &[Vec<usize>],
    preds: &[Vec<usize>],
    roots: &[usize],
) -> (Vec<usize>, Vec<usize>) {
    // Post-order from a virtual root `n`.
    let mut order = Vec::with_capacity(n + 1);
    let mut seen = vec![false; n + 1];
    let mut stack: Vec<(usize, usize)> = vec![(n, 0)];
    seen[n] = true;
    while let Some(&mut (node, ref mut next)) = stack.last_mut() {
        let children: &[usize] = if node == n { roots } else { &succs[node] };
        if *next < children.len() {
            let c = children[*next];
            *next += 1;
            if !seen[c] {
                seen[c] = true;
                stack.push((c, 0));
            }
        } else {
            order.push(node);
            stack.pop();
        }
    }
    let mut po_number = vec![NONE; n + 1];
    for (i, &b) in order.iter().enumerate() {
        po_number[b] = i;
    }
    let mut idom = vec![NONE; n + 1];
    idom[n] = n;
    let intersect = |idom: &[usize], mut a: usize, mut b: usize| {
        while a != b {
            while po_number[a] < po_number[b] {
                a = idom[a];
            }
            while po_number[b] < po_number[a] {
                b = idom[b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().rev() {
            if b == n {
                continue;
            }
            let mut new = NONE;
            let ps = preds[b]
                .iter()
                .copied()
                .chain(roots.contains(&b).then_some(n));
            for p in ps {
                if idom[p] == NONE {
                    continue;
                }
                new = if new == NONE {
                    p
                } else {
                    intersect(&idom, p, new)
                };
            }
            if new != NONE && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    (idom, order)
}

/// Pre/post numbers of an iterative DFS over the dominator tree.
fn dom_tree_numbers(n: usize, idom: &[Option<Block>], rpo: &[Block]) -> (Vec<u32>, Vec<u32>) {
    let mut children = vec![Vec::new(); n];
    for &b in rpo {
        if let Some(d) = idom[b.index()] {
            children[d.index()].push(b);
        }
    }
    let mut pre = vec![u32::MAX; n];
    let mut post = vec![u32::MAX; n];
    let mut clock = 0u32;
    if let Some(&root) = rpo.first() {
        let mut stack = vec![(root, 0usize)];
        pre[root.index()] = clock;
        clock += 1;
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            if let Some(&c) = children[b.index()].get(*next) {
                *next += 1;
                pre[c.index()] = clock;
                clock += 1;
                stack.push((c, 0));
            } else {
                post[b.index()] = clock;
                clock += 1;
                stack.pop();
            }
        }
    }
    (pre, post)
}

impl Cfg {
    /// Analyses `f`.
    pub fn new(f: &Function) -> Cfg {
        let n = f.block_count();
        let mut succs = vec![Vec::new(); n];
        for &b in f.blocks() {
            succs[b.index()] = f.successors(b);
        }
        let preds = f.predecessors();
        let s: Vec<Vec<usize>> = succs
            .iter()
            .map(|v| v.iter().map(|b| b.index()).collect())
            .collect();
        let p: Vec<Vec<usize>> = preds
            .iter()
            .map(|v| v.iter().map(|b| b.index()).collect())
            .collect();
        let entry: Vec<usize> = f.entry().map(|b| b.index()).into_iter().collect();
        let (idom_raw, po) = dominators(n, &s, &p, &entry);
        let rpo: Vec<Block> = po
            .iter()
            .rev()
            .filter(|&&b| b != n)
            .map(|&b| Block(b as u32))
            .collect();
        let idom: Vec<Option<Block>> = (0..n)
            .map(|b| match idom_raw[b] {
                x if x == NONE || x == n => None,
                x => Some(Block(x as u32)),
            })
            .collect();
        // Post-dominators: the same on the reversed graph, rooted at the exits.
        let exits: Vec<usize> = f
            .blocks()
            .iter()
            .filter(|b| succs[b.index()].is_empty())
            .map(|b| b.index())
            .collect();
        let (ipdom_raw, _) = dominators(n, &p, &s, &exits);
        let ipdom = (0..n)
            .map(|b| match ipdom_raw[b] {
                x if x == NONE || x == n => None,
                x => Some(Block(x as u32)),
            })
            .collect();
        let (dom_pre, dom_post) = dom_tree_numbers(n, &idom, &rpo);
        let mut cfg = Cfg {
            succs,
            preds,
            rpo,
            idom,
            ipdom,
            back_edges: Vec::new(),
            dom_pre,
            dom_post,
        };
        let mut back = Vec::new();
        for &b in &cfg.rpo {
            for &s in &cfg.succs[b.index()] {
                if cfg.dominates(s, b) {
                    back.push((b, s));
                }
            }
        }
        cfg.back_edges = back;
        cfg
    }

    /// True if `a` dominates `b` (every block dominates itself).
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if a == b {
            return true;
        }
        let (pa, pb) = (self.dom_pre[a.index()], self.dom_pre[b.index()]);
        pa != u32::MAX
            && pb != u32::MAX
            && pa <= pb
            && self.dom_post[b.index()] <= self.dom_post[a.index()]
    }

    /// True if `b` is reachable from the entry.
    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo.contains(&b)
    }

    /// The blocks of the natural loop of the back edge `(latch, header)`.
    pub fn loop_blocks(&self, latch: Block, header: Block) -> Vec<Block> {
        let mut body = vec![header];
        let mut work = vec![latch];
        while let Some(b) = work.pop() {
            if body.contains(&b) {
                continue;
            }
            body.push(b);
            work.extend(self.preds[b.index()].iter().copied());
        }
        body
    }
}
