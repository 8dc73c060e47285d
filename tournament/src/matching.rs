//! Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm).
//!
//! The Dutch pairing uses it as its completion oracle (C.04.3 C.4): "can these players still all be paired
//! without breaking an absolute criterion?" is "has their compatibility graph a perfect matching?".

use std::collections::VecDeque;

/// No mate.
pub(crate) const NONE: usize = usize::MAX;

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
    #[cfg(test)]
    fn max_matching(&self) -> usize {
        let mate = self.matching_within(&vec![true; self.n]);
        mate.iter().filter(|&&m| m != NONE).count() / 2
    }

    /// Whether every vertex can be matched.
    #[cfg(test)]
    fn has_perfect_matching(&self) -> bool {
        self.n.is_multiple_of(2) && self.max_matching() * 2 == self.n
    }

    /// A maximum matching of the subgraph induced by the `active` vertices, as each vertex's mate (`NONE` when
    /// unmatched or inactive).
    pub(crate) fn matching_within(&self, active: &[bool]) -> Vec<usize> {
        let n = self.n;
        let mut mate = vec![NONE; n];
        // A greedy start makes the augmenting searches few.
        for v in (0..n).filter(|&v| active[v]) {
            if mate[v] == NONE {
                if let Some(&u) = self.adj[v].iter().find(|&&u| active[u] && mate[u] == NONE) {
                    mate[v] = u;
                    mate[u] = v;
                }
            }
        }
        for root in 0..n {
            if active[root] && mate[root] == NONE {
                self.augment(root, &mut mate, active);
            }
        }
        mate
    }

    /// Grows `mate`, a maximum matching of the active vertices but `root`, by one augmenting search from the
    /// newly active `root`; the result is a maximum matching of the active vertices (an augmenting path of the
    /// larger graph must end at `root`). Returns whether `root` got matched.
    pub(crate) fn extend(&self, root: usize, mate: &mut [usize], active: &[bool]) -> bool {
        mate[root] != NONE || self.augment(root, mate, active)
    }

    /// One breadth-first search for an augmenting path from `root` through active vertices, shrinking odd cycles
    /// (blossoms) by their base.
    fn augment(&self, root: usize, mate: &mut [usize], active: &[bool]) -> bool {
        let n = self.n;
        let mut parent = vec![NONE; n];
        let mut base: Vec<usize> = (0..n).collect();
        let mut used = vec![false; n];
        let mut queue = VecDeque::new();
        used[root] = true;
        queue.push_back(root);
        while let Some(v) = queue.pop_front() {
            for &u in &self.adj[v] {
                if !active[u] || base[v] == base[u] || mate[v] == u {
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
    fn extending_a_maximum_matching_one_vertex_at_a_time_stays_maximum() {
        // A path 0-1-2-3-4-5: the first five vertices match two pairs; adding 5 makes it perfect.
        let mut g = Graph::new(6);
        for v in 0..5 {
            g.add_edge(v, v + 1);
        }
        let mut active = vec![true, true, true, true, true, false];
        let mut mate = g.matching_within(&active);
        assert_eq!(mate.iter().filter(|&&m| m != NONE).count(), 4);
        active[5] = true;
        assert!(g.extend(5, &mut mate, &active));
        assert!(mate.iter().all(|&m| m != NONE));
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
