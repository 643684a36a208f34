//! The VCD header: the scope tree of the written signals and their
//! identifier codes, formatted by hand in the `vcd` crate's layout (the
//! crate's `writeln!` per line cost more than the rest of a short traced run's
//! set-up).

use std::collections::HashMap;
use std::io::Write;

use crate::line::Suffix;

/// Where one declared signal goes in the file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Out {
    /// Its identifier code and line end.
    pub(crate) suffix: Suffix,
    /// Width in bits; 0 for a signal the filter left out.
    pub(crate) width: u32,
}

pub(crate) const NOT_WRITTEN: Out = Out {
    suffix: Suffix::EMPTY,
    width: 0,
};

/// Header: version, timescale, the scope tree with its variables (filling in
/// each written signal's identifier code), end of definitions.
pub(crate) fn write_header<W: Write>(
    out: &mut W,
    timescale_ns: u32,
    vars: Option<(&Tree, &[crate::SignalDecl], &mut [Out])>,
) -> std::io::Result<()> {
    let mut text = Vec::with_capacity(1 << 16);
    text.extend_from_slice(b"$version\n    gpusim traces\n$end\n$timescale ");
    push_decimal(&mut text, u64::from(timescale_ns));
    text.extend_from_slice(b" ns $end\n");
    if let Some((tree, signals, outs)) = vars {
        tree.emit(0, &mut text, &mut 0, signals, outs)?;
    }
    text.extend_from_slice(b"$enddefinitions $end\n");
    out.write_all(&text)
}

/// The decimal digits of `v`.
fn push_decimal(text: &mut Vec<u8>, v: u64) {
    text.extend_from_slice(crate::line::decimal(v, &mut [0; 20]));
}

/// The identifier code of the `n`-th variable as the `vcd` crate writes it
/// (printable ASCII `!`..`~`, least significant character first) into `out`;
/// its length, or `None` beyond 7 characters.
fn id_code(n: u64, out: &mut [u8; 7]) -> Option<usize> {
    const CHARS: u64 = (b'~' - b'!' + 1) as u64;
    let mut i = n;
    for (k, c) in out.iter_mut().enumerate() {
        *c = b'!' + (i % CHARS) as u8;
        if i < CHARS {
            return Some(k + 1);
        }
        i = i / CHARS - 1;
    }
    None
}

/// A multiply-rotate hash (as rustc's `FxHasher`) for the declaration's name
/// sets: several times faster than SipHash on short names, and the names come
/// from the design, not from an adversary.
#[derive(Clone, Copy, Default)]
pub(crate) struct Fx(u64);

impl std::hash::Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl Fx {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

pub(crate) type FastHash = std::hash::BuildHasherDefault<Fx>;

/// The scope tree of the selected signals, children in first-seen order.
pub(crate) struct Tree<'a> {
    nodes: Vec<Node<'a>>,
}

struct Node<'a> {
    name: &'a str,
    items: Vec<Item<'a>>,
}

enum Item<'a> {
    Scope(usize),
    /// Declaration index and the variable's own name.
    Var(usize, &'a str),
}

impl<'a> Tree<'a> {
    pub(crate) fn build(paths: impl Iterator<Item = &'a str>, selected: &[bool]) -> Tree<'a> {
        let mut nodes = vec![Node {
            name: "",
            items: Vec::new(),
        }];
        let mut index: HashMap<(usize, &'a str), usize, FastHash> = HashMap::default();
        // The nodes of the previous signal's scopes: signals come scope by
        // scope, so most share them all and need no look-up.
        let mut last: Vec<(&'a str, usize)> = Vec::new();
        for (i, path) in paths.enumerate() {
            if !selected[i] {
                continue;
            }
            let (scopes, name) = path.rsplit_once('.').unwrap_or(("", path));
            let mut node = 0;
            let mut depth = 0;
            for part in scopes.split('.').filter(|p| !p.is_empty()) {
                if let Some(&(_, n)) = last.get(depth).filter(|(p, _)| *p == part) {
                    node = n;
                    depth += 1;
                    continue;
                }
                last.truncate(depth);
                node = match index.get(&(node, part)) {
                    Some(&n) => n,
                    None => {
                        let n = nodes.len();
                        nodes.push(Node {
                            name: part,
                            items: Vec::new(),
                        });
                        nodes[node].items.push(Item::Scope(n));
                        index.insert((node, part), n);
                        n
                    }
                };
                last.push((part, node));
                depth += 1;
            }
            last.truncate(depth);
            nodes[node].items.push(Item::Var(i, name));
        }
        Tree { nodes }
    }

    /// Appends the `$scope`/`$var` lines of `node`'s items to `text`, giving
    /// each variable the next identifier code (as the `vcd` crate numbers
    /// them) and filling in its [`Out`].
    fn emit(
        &self,
        node: usize,
        text: &mut Vec<u8>,
        next_id: &mut u64,
        signals: &[crate::SignalDecl],
        outs: &mut [Out],
    ) -> std::io::Result<()> {
        for item in &self.nodes[node].items {
            match *item {
                Item::Scope(n) => {
                    text.extend_from_slice(b"$scope module ");
                    text.extend_from_slice(self.nodes[n].name.as_bytes());
                    text.extend_from_slice(b" $end\n");
                    self.emit(n, text, next_id, signals, outs)?;
                    text.extend_from_slice(b"$upscope $end\n");
                }
                Item::Var(i, name) => {
                    let width = signals[i].width;
                    let mut id = [0u8; 7];
                    let Some(id_len) = id_code(*next_id, &mut id) else {
                        return Err(std::io::Error::other("more than 94^7 signals"));
                    };
                    *next_id += 1;
                    let id = &id[..id_len];
                    text.extend_from_slice(b"$var wire ");
                    push_decimal(text, u64::from(width));
                    text.push(b' ');
                    text.extend_from_slice(id);
                    text.push(b' ');
                    text.extend_from_slice(name.as_bytes());
                    text.extend_from_slice(b" $end\n");
                    outs[i] = Out {
                        suffix: Suffix::new(id, width > 1),
                        width,
                    };
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifier_codes_are_the_vcd_crates() {
        let mut id = [0u8; 7];
        // One, two and three characters, and the boundaries between them.
        for n in (0..20_000u64).chain([94 * 95 - 2, 94 * 95 - 1, 94 * 95, 830_583, 830_584]) {
            let len = id_code(n, &mut id).unwrap();
            assert_eq!(
                &id[..len],
                vcd::IdCode::from(n).to_string().as_bytes(),
                "{n}"
            );
        }
        assert_eq!(id_code(u64::MAX, &mut id), None);
    }

    #[test]
    fn header_is_the_vcd_crates() {
        let paths = [
            "top.a",
            "top.sub.b",
            "top.sub.c",
            "top.d",
            "other.e",
            "top.sub.f",
        ];
        let widths = [1, 8, 64, 3, 1, 130];
        let signals: Vec<_> = paths
            .iter()
            .zip(widths)
            .map(|(p, w)| crate::SignalDecl {
                path: p.to_string(),
                width: w,
            })
            .collect();
        let selected = [true, true, false, true, true, true];
        let tree = Tree::build(paths.iter().copied(), &selected);
        let mut outs = vec![NOT_WRITTEN; paths.len()];
        let mut ours = Vec::new();
        write_header(&mut ours, 10, Some((&tree, &signals, &mut outs))).unwrap();

        // The same through the crate: scopes in first-seen order, merged.
        let mut theirs = Vec::new();
        let mut w = vcd::Writer::new(&mut theirs);
        w.version("gpusim traces").unwrap();
        w.timescale(10, vcd::TimescaleUnit::NS).unwrap();
        w.add_module("top").unwrap();
        w.add_wire(1, "a").unwrap();
        w.add_module("sub").unwrap();
        w.add_wire(8, "b").unwrap();
        w.add_wire(130, "f").unwrap();
        w.upscope().unwrap();
        w.add_wire(3, "d").unwrap();
        w.upscope().unwrap();
        w.add_module("other").unwrap();
        w.add_wire(1, "e").unwrap();
        w.upscope().unwrap();
        w.enddefinitions().unwrap();
        assert_eq!(
            String::from_utf8(ours).unwrap(),
            String::from_utf8(theirs).unwrap()
        );
        assert_eq!(outs[2].width, 0);
        assert_eq!(outs[5].width, 130);
    }
}
