//! Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm).
//!
//! The Dutch pairing uses it as its completion oracle (C.04.3 C.4): "can these players still all be paired
//! without breaking an absolute criterion?" is "has their compatibility graph a perfect matching?".

use std::collections::VecDeque;

/// An undirected graph on `n` vertices given by an adjacency matrix.
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    n: usize,
    adj: Vec<Vec<usize>>,
}

impl Graph {
    /// A graph with `n` vertices and no edges.
    pub(crate) fn new(n: usize) -> Self {
        Graph {
            n,
            adj: vec![Vec::new(); n],
        }
    }

    /// Adds the edge `a`–`b`.
    pub(crate) fn add_edge(&mut self, a: usize, b: usize) {
        if a != b {
            self.adj[a].push(b);
            self.adj[b].push(a);
        }
    }

    /// The size of a maximum matching.
    pub(crate) fn max_matching(&self) -> usize {
        let n = self.n;
        let mut mate = vec![usize::MAX; n];
        // A greedy start makes the augmenting searches few.
        for v in 0..n {
            if mate[v] == usize::MAX {
                if let Some(&u) = self.adj[v].iter().find(|&&u| mate[u] == usize::MAX) {
                    mate[v] = u;
                    mate[u] = v;
                }
            }
        }
        let mut size = mate.iter().filter(|&&m| m != usize::MAX).count() / 2;
        for root in 0..n {
            if mate[root] == usize::MAX && self.augment(root, &mut mate) {
                size += 1;
            }
        }
        size
    }

    /// Whether every vertex can be matched.
    pub(crate) fn has_perfect_matching(&self) -> bool {
        self.n.is_multiple_of(2) && self.max_matching() * 2 == self.n
    }

    /// One breadth-first search for an augmenting path from `root`, shrinking odd cycles (blossoms) by their base.
    fn augment(&self, root: usize, mate: &mut [usize]) -> bool {
        const NONE: usize = usize::MAX;
        let n = self.n;
        let mut parent = vec![NONE; n];
        let mut base: Vec<usize> = (0..n).collect();
        let mut used = vec![false; n];
        let mut queue = VecDeque::new();
        used[root] = true;
        queue.push_back(root);
        while let Some(v) = queue.pop_front() {
            for &u in &self.adj[v] {
                if base[v] == base[u] || mate[v] == u {
                    continue;
                }
                if u == root || (mate[u] != NONE && parent[mate[u]] != NONE) {
                    // An odd cycle: contract it to its base.
                    let cur = lca(v, u, &base, mate, &parent);
                    let mut blossom = vec![false; n];
                    mark_path(v, cur, u, &mut blossom, &mut parent, &base, mate);
                    mark_path(u, cur, v, &mut blossom, &mut parent, &base, mate);
                    for i in 0..n {
                        if blossom[base[i]] {
                            base[i] = cur;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[u] == NONE {
                    parent[u] = v;
                    if mate[u] == NONE {
                        // Augment along the alternating path ending at u.
                        let mut x = u;
                        while x != NONE {
                            let pv = parent[x];
                            let ppv = mate[pv];
                            mate[x] = pv;
                            mate[pv] = x;
                            x = ppv;
                        }
                        return true;
                    }
                    used[mate[u]] = true;
                    queue.push_back(mate[u]);
                }
            }
        }
        false
    }
}

fn lca(a: usize, b: usize, base: &[usize], mate: &[usize], parent: &[usize]) -> usize {
    let mut seen = vec![false; base.len()];
    let mut a = a;
    loop {
        a = base[a];
        seen[a] = true;
        if mate[a] == usize::MAX {
            break;
        }
        a = parent[mate[a]];
    }
    let mut b = b;
    loop {
        b = base[b];
        if seen[b] {
            return b;
        }
        b = parent[mate[b]];
    }
}

fn mark_path(
    mut v: usize,
    b: usize,
    mut child: usize,
    blossom: &mut [bool],
    parent: &mut [usize],
    base: &[usize],
    mate: &[usize],
) {
    while base[v] != b {
        blossom[base[v]] = true;
        blossom[base[mate[v]]] = true;
        parent[v] = child;
        child = mate[v];
        v = parent[mate[v]];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_odd_cycle_with_a_tail_is_matched_through_its_blossom() {
        // Triangle 0-1-2 with 2-3 and 3-4, 4-5: perfect matching 0-1, 2-3, 4-5.
        let mut g = Graph::new(6);
        for (a, b) in [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5)] {
            g.add_edge(a, b);
        }
        assert!(g.has_perfect_matching());
    }

    #[test]
    fn a_star_has_no_perfect_matching() {
        let mut g = Graph::new(4);
        for b in 1..4 {
            g.add_edge(0, b);
        }
        assert_eq!(g.max_matching(), 1);
        assert!(!g.has_perfect_matching());
    }

    #[test]
    fn the_petersen_graph_has_a_perfect_matching() {
        let mut g = Graph::new(10);
        for i in 0..5 {
            g.add_edge(i, (i + 1) % 5);
            g.add_edge(i, i + 5);
            g.add_edge(5 + i, 5 + (i + 2) % 5);
        }
        assert!(g.has_perfect_matching());
    }
}
