//! Signal selection by glob: `gpu.cu0.*`, `*.valid`, `gpu.mem` — several globs
//! separated by commas.
//!
//! `*` matches any run of characters (dots included, so `*.pc` finds every `pc`
//! at any depth), `?` exactly one character. A glob selects a signal when it
//! matches the signal's whole name or one of its enclosing scopes, so
//! `gpu.cu0` selects everything under `gpu.cu0`.

use crate::TraceError;

/// A parsed list of globs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    globs: Vec<String>,
}

impl Filter {
    /// Parses a comma-separated list of globs (spaces around commas are
    /// ignored). An empty list or an empty glob is an error.
    pub fn parse(text: &str) -> Result<Filter, TraceError> {
        let globs: Vec<String> = text.split(',').map(|g| g.trim().to_string()).collect();
        if globs.iter().any(|g| g.is_empty()) {
            return Err(TraceError::BadFilter {
                filter: text.to_string(),
            });
        }
        Ok(Filter { globs })
    }

    /// The globs, in the order given.
    pub fn globs(&self) -> &[String] {
        &self.globs
    }

    /// Whether any glob selects `path`.
    pub fn selects(&self, path: &str) -> bool {
        self.globs.iter().any(|g| selects(g, path))
    }

    /// Which of `paths` are selected. Every glob must select at least one path:
    /// a glob that selects nothing is almost always a typo, so it is an error
    /// naming it.
    pub fn select<'a>(
        &self,
        paths: impl IntoIterator<Item = &'a str>,
    ) -> Result<Vec<bool>, TraceError> {
        let mut hit = vec![false; self.globs.len()];
        let mut out = Vec::new();
        let mut all = Vec::new();
        for path in paths {
            all.push(path);
            let mut any = false;
            for (g, h) in self.globs.iter().zip(hit.iter_mut()) {
                if selects(g, path) {
                    *h = true;
                    any = true;
                }
            }
            out.push(any);
        }
        match hit.iter().position(|h| !h) {
            Some(i) => Err(TraceError::NoMatch {
                glob: self.globs[i].clone(),
                close: close_matches(&self.globs[i], &all),
            }),
            None => Ok(out),
        }
    }
}

/// Names shown as close to a glob that matches nothing: the glob's literal
/// part (up to its first wildcard) is matched as far as it goes against every
/// path, and the scopes or signals one level below that point are listed
/// (`gpu.cu0.nothing*` → `gpu.cu0.lds`, `gpu.cu0.pc`, …), at most
/// [`CLOSE_SHOWN`].
fn close_matches(glob: &str, paths: &[&str]) -> Vec<String> {
    let literal = glob[..glob.find(['*', '?']).unwrap_or(glob.len())].to_ascii_lowercase();
    let common = |p: &str| {
        p.bytes()
            .map(|b| b.to_ascii_lowercase())
            .zip(literal.bytes())
            .take_while(|(a, b)| a == b)
            .count()
    };
    let Some(best) = paths.iter().map(|p| common(p)).max() else {
        return Vec::new();
    };
    // Back to the start of the component the match stopped in.
    let start = literal[..best].rfind('.').map_or(0, |i| i + 1);
    let mut names = std::collections::BTreeSet::new();
    for p in paths
        .iter()
        .filter(|p| common(p) >= start && p.is_char_boundary(start))
    {
        let end = p[start..].find('.').map_or(p.len(), |i| start + i);
        names.insert(p[..end].to_string());
    }
    let mut names: Vec<String> = names.into_iter().collect();
    // The ones sharing most of the glob first, then by name.
    names.sort_by_key(|n| std::cmp::Reverse(common(n)));
    names.truncate(CLOSE_SHOWN);
    names
}

/// Close names listed in a no-match error.
const CLOSE_SHOWN: usize = 8;

/// The close names as the error message's tail.
pub(crate) fn close_list(close: &[String]) -> String {
    if close.is_empty() {
        String::new()
    } else {
        format!(" (close: {})", close.join(", "))
    }
}

/// `glob` matches `path` or one of its scope prefixes (`a.b` for `a.b.c`).
fn selects(glob: &str, path: &str) -> bool {
    let g = glob.as_bytes();
    let p = path.as_bytes();
    if matches(g, p) {
        return true;
    }
    p.iter()
        .enumerate()
        .any(|(i, &c)| c == b'.' && matches(g, &p[..i]))
}

/// Whole-string glob match with `*` and `?` (greedy with one backtrack point,
/// which is exact for these two wildcards).
fn matches(g: &[u8], p: &[u8]) -> bool {
    let (mut gi, mut pi) = (0, 0);
    // Position of the last `*` in the glob and the text position it resumes at.
    let mut star: Option<(usize, usize)> = None;
    while pi < p.len() {
        match g.get(gi) {
            Some(b'*') => {
                star = Some((gi, pi));
                gi += 1;
            }
            Some(&c) if c == b'?' || c == p[pi] => {
                gi += 1;
                pi += 1;
            }
            _ => match star {
                Some((sg, sp)) => {
                    gi = sg + 1;
                    pi = sp + 1;
                    star = Some((sg, sp + 1));
                }
                None => return false,
            },
        }
    }
    g[gi..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(matches(b"gpu.cu0.*", b"gpu.cu0.pc"));
        assert!(matches(b"gpu.cu0.*", b"gpu.cu0.simd1.wave3.pc"));
        assert!(!matches(b"gpu.cu0.*", b"gpu.cu01.pc"));
        assert!(!matches(b"gpu.cu0.*", b"gpu.cu0"));
        assert!(matches(b"*.valid", b"gpu.l2.req.valid"));
        assert!(!matches(b"*.valid", b"gpu.l2.req_valid"));
        assert!(matches(b"*valid", b"gpu.l2.req_valid"));
        assert!(matches(b"gpu.cu?.pc", b"gpu.cu7.pc"));
        assert!(!matches(b"gpu.cu?.pc", b"gpu.cu10.pc"));
        assert!(matches(b"a*b*c", b"axxbyybzzc"));
        assert!(!matches(b"a*b*c", b"axxbyybzz"));
        assert!(matches(b"*", b""));
        assert!(!matches(b"", b"a"));
        assert!(matches(b"**.x", b"a.b.x"));
    }

    #[test]
    fn scope_prefix_selects_children() {
        assert!(selects("gpu.cu0", "gpu.cu0.simd1.pc"));
        assert!(!selects("gpu.cu0", "gpu.cu01.pc"));
        assert!(selects("gpu.cu?", "gpu.cu3.pc"));
        assert!(!selects("cu0", "gpu.cu0.pc"));
    }

    #[test]
    fn parse_and_select() {
        let f = Filter::parse("gpu.a.*, *.v").unwrap();
        assert_eq!(f.globs(), ["gpu.a.*", "*.v"]);
        let sel = f.select(["gpu.a.x", "gpu.b.v", "gpu.b.w"]).unwrap();
        assert_eq!(sel, [true, true, false]);
        match f.select(["gpu.b.v"]) {
            Err(TraceError::NoMatch { glob, close }) => {
                assert_eq!(glob, "gpu.a.*");
                // "gpu." matches; the names one level below it.
                assert_eq!(close, ["gpu.b"]);
            }
            other => panic!("{other:?}"),
        }
        let f = Filter::parse("gpu.cu0.vlau*").unwrap();
        let err = f
            .select(["gpu.cu0.valu.busy", "gpu.cu0.pc", "gpu.cu1.pc", "gpu.mem.x"])
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "trace filter glob `gpu.cu0.vlau*` matches no signal (close: gpu.cu0.valu, gpu.cu0.pc)"
        );
        assert!(Filter::parse("a,,b").is_err());
        assert!(Filter::parse("").is_err());
    }
}
