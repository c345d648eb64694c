package hibust

import (
	"math"
	"slices"
)

// Node is one node of a HiBUST tree (paper 003 Fig. 3). A leaf stands for
// one class and holds one or more MCCK clusters of it; an internal node
// holds a binary sub-problem: the labelled objects of its Left subtree
// (side 0) against those of its Right subtree (side 1).
type Node struct {
	// Leaf is true for leaves; Class is then the leaf's class label
	// (−1 for internal nodes, whose pseudo-class is their index).
	Leaf  bool `json:"leaf"`
	Class int  `json:"class"`
	// Left and Right are child indices (−1 for leaves).
	Left  int `json:"left"`
	Right int `json:"right"`
	// Clusters are the MCCK clusters a leaf holds (more than one when
	// the closest pair of nodes were leaves of the same class).
	Clusters []int `json:"clusters,omitempty"`
	// Labeled are the training rows of labeledInst: the labelled (and
	// confidence-labelled) rows of the node's clusters, ascending.
	Labeled []int `json:"labeled"`
	// Height is the Euclidean (feature-space) distance between the two
	// centroids merged into this internal node; 0 for leaves.
	Height float64 `json:"height"`
	// Reached is the number of unlabelled training rows that reached the
	// node during the top-down classification (Fig. 4); Sent[0] and
	// Sent[1] how many of them the node's learner sent left and right.
	Reached int    `json:"reached"`
	Sent    [2]int `json:"sent"`
	// The router labels new points (internal nodes): a C-SVC trained on
	// the node's rows with their final transductive sides,
	// f(x) = Σ_s Coef[s]·k(x, x_{SV[s]}) − Rho, f > 0 going Right. SV
	// holds training rows.
	SV   []int     `json:"sv,omitempty"`
	Coef []float64 `json:"coef,omitempty"`
	Rho  float64   `json:"rho"`
}

// buildTree is Fig. 3: one leaf per cluster with labelled rows
// (labeled[j] for cluster j of class class[j]), merged bottom-up by the
// closest centroids of their labelled rows (Euclidean in feature space).
// Two closest leaves of one class become one leaf; otherwise an internal
// node is created with the earlier node (in the list L of Fig. 3, where
// new nodes are appended) on the left. Ties go to the lexicographically
// first pair of list positions. The returned nodes are numbered in
// preorder from the root (index 0); nodes replaced by a merged leaf do not
// appear.
func buildTree(g *gram, labeled [][]int, class []int) []Node {
	type work struct {
		node Node
		rows []int
	}
	var all []work
	for j, rows := range labeled {
		if len(rows) == 0 {
			continue
		}
		all = append(all, work{node: Node{Leaf: true, Class: class[j], Left: -1, Right: -1, Clusters: []int{j}}, rows: rows})
	}
	// Leaves in the order of Fig. 3: by class, then cluster.
	slices.SortStableFunc(all, func(a, b work) int { return a.node.Class - b.node.Class })
	// S[a][b] = Σ_{i∈a, j∈b} K_ij over the nodes' labelled rows.
	S := map[[2]int]float64{}
	sum := func(a, b []int) float64 {
		var s float64
		for _, i := range a {
			ri := g.row(i)
			for _, j := range b {
				s += ri[j]
			}
		}
		return s
	}
	key := func(a, b int) [2]int {
		if a > b {
			a, b = b, a
		}
		return [2]int{a, b}
	}
	for a := range all {
		for b := a; b < len(all); b++ {
			S[key(a, b)] = sum(all[a].rows, all[b].rows)
		}
	}
	d2 := func(a, b int) float64 {
		na, nb := float64(len(all[a].rows)), float64(len(all[b].rows))
		return max(0, S[key(a, a)]/(na*na)+S[key(b, b)]/(nb*nb)-2*S[key(a, b)]/(na*nb))
	}
	L := make([]int, len(all))
	for i := range L {
		L[i] = i
	}
	for len(L) > 1 {
		// The closest pair; pairs within g.tie of it are ties, broken by
		// the first pair of list positions.
		bd := math.Inf(1)
		for x := 0; x < len(L); x++ {
			for z := x + 1; z < len(L); z++ {
				bd = min(bd, d2(L[x], L[z]))
			}
		}
		ba, bb := -1, -1
	search:
		for x := 0; x < len(L); x++ {
			for z := x + 1; z < len(L); z++ {
				if d2(L[x], L[z]) <= bd+g.tie {
					ba, bb = x, z
					break search
				}
			}
		}
		bd = d2(L[ba], L[bb])
		a, b := L[ba], L[bb]
		t := len(all)
		var w work
		w.rows = append(slices.Clone(all[a].rows), all[b].rows...)
		slices.Sort(w.rows)
		na, nb := all[a].node, all[b].node
		if na.Leaf && nb.Leaf && na.Class == nb.Class {
			w.node = Node{Leaf: true, Class: na.Class, Left: -1, Right: -1,
				Clusters: slices.Sorted(slices.Values(append(slices.Clone(na.Clusters), nb.Clusters...)))}
		} else {
			w.node = Node{Class: -1, Left: a, Right: b, Height: math.Sqrt(bd)}
		}
		all = append(all, w)
		// S for the new node: S(t, c) = S(a, c) + S(b, c).
		for c := 0; c < t; c++ {
			S[key(t, c)] = S[key(a, c)] + S[key(b, c)]
		}
		S[key(t, t)] = S[key(a, a)] + S[key(b, b)] + 2*S[key(a, b)]
		L = append(slices.Delete(L, bb, bb+1), t)
		L = slices.Delete(L, ba, ba+1)
	}
	// Preorder renumbering from the root.
	var out []Node
	var walk func(i int) int
	walk = func(i int) int {
		idx := len(out)
		n := all[i].node
		n.Labeled = all[i].rows
		out = append(out, n)
		if !n.Leaf {
			l := walk(n.Left)
			r := walk(n.Right)
			out[idx].Left, out[idx].Right = l, r
		}
		return idx
	}
	walk(L[0])
	return out
}
