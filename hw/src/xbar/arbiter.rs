//! Round-robin arbiter: the input granted last has the lowest priority next.

traces::signals! {
    /// Arbiter state: the last input granted.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct RoundRobin {
        /// Index of the input granted last (priority starts after it).
        pub last: u16,
        /// Number of inputs.
        @untraced
        pub inputs: u16,
    }
}

impl RoundRobin {
    /// An arbiter over `inputs` inputs whose first grant favours input 0.
    pub fn new(inputs: u16) -> RoundRobin {
        RoundRobin {
            last: inputs.saturating_sub(1),
            inputs,
        }
    }

    /// Pure next-state function: the grant for this cycle's requests and the
    /// state after the clock edge (unchanged when nothing is granted).
    pub fn eval(&self, requesting: impl Fn(usize) -> bool) -> (Option<usize>, RoundRobin) {
        let n = usize::from(self.inputs);
        let start = usize::from(self.last) + 1;
        for k in 0..n {
            let i = (start + k) % n;
            if requesting(i) {
                let next = RoundRobin {
                    last: i as u16,
                    inputs: self.inputs,
                };
                return (Some(i), next);
            }
        }
        (None, self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn always_requesting_inputs_rotate() {
        for n in [1u16, 2, 3, 5, 8] {
            let mut a = RoundRobin::new(n);
            let mut order = Vec::new();
            for _ in 0..3 * n {
                let (g, next) = a.eval(|_| true);
                order.push(g.unwrap());
                a = next;
            }
            let expected: Vec<usize> = (0..3 * usize::from(n))
                .map(|k| k % usize::from(n))
                .collect();
            assert_eq!(order, expected, "n = {n}");
        }
    }

    #[test]
    fn no_starvation_with_a_changing_request_set() {
        // Input 0 always requests; inputs 1..4 request on alternate cycles.
        // Every input that keeps requesting is served within n grants.
        let n = 4;
        let mut a = RoundRobin::new(n as u16);
        let mut waiting = [0u32; 4];
        for cycle in 0..200 {
            let req = |i: usize| i == 0 || (cycle + i) % 2 == 0;
            let (g, next) = a.eval(req);
            let g = g.unwrap();
            for (i, w) in waiting.iter_mut().enumerate() {
                if i == g {
                    *w = 0;
                } else if req(i) {
                    *w += 1;
                }
            }
            assert!(waiting.iter().all(|&w| w < 2 * n as u32), "{waiting:?}");
            a = next;
        }
    }

    #[test]
    fn idle_cycle_keeps_state() {
        let a = RoundRobin::new(3);
        let (g, next) = a.eval(|_| false);
        assert_eq!(g, None);
        assert_eq!(next, a);
    }
}
