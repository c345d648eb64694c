package svcluster

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Node is a cluster of the hierarchy: a chain of levels over which a cluster
// persists without splitting. A cluster at level l is the continuation of
// the cluster at level l−1 holding most of its members (points that are
// labelled at both levels); a cluster continued by two or more clusters has
// split, and those become its children.
type Node struct {
	ID       int   `json:"id"`
	Parent   int   `json:"parent"` // −1 for the root
	Children []int `json:"children,omitempty"`
	// First and Last are the indices of the first and last levels of the
	// node in Hierarchy.Levels.
	First int `json:"first_level"`
	Last  int `json:"last_level"`
	// QBorn is q at level First; Height is q at which it is first seen split
	// (the q of its children's first level), or q of level Last for a leaf.
	QBorn  float64 `json:"q_born"`
	Height float64 `json:"height"`
	// Size is the number of rows in the cluster at level First.
	Size int `json:"size"`
}

// buildTree links the clusters of consecutive levels into a tree.
func buildTree(levels []Level) []Node {
	if len(levels) == 0 {
		return nil
	}
	var nodes []Node
	newNode := func(parent, level, size int) int {
		id := len(nodes)
		nodes = append(nodes, Node{ID: id, Parent: parent, First: level, Last: level,
			QBorn: levels[level].Q, Height: levels[level].Q, Size: size})
		if parent >= 0 {
			nodes[parent].Children = append(nodes[parent].Children, id)
		}
		return id
	}
	n := len(levels[0].Labels)
	l0 := levels[0]
	cur := make([]int, l0.NClusters) // node of each cluster of the current level
	if l0.NClusters == 1 {
		cur[0] = newNode(-1, 0, l0.Sizes[0])
	} else {
		root := newNode(-1, 0, n)
		for c := range cur {
			cur[c] = newNode(root, 0, l0.Sizes[c])
		}
	}
	for l := 1; l < len(levels); l++ {
		prev, lv := levels[l-1], levels[l]
		// overlap[c][p]: rows in cluster c now and p before.
		parent := make([]int, lv.NClusters)
		counts := make([]map[int]int, lv.NClusters)
		for i := 0; i < n; i++ {
			c, p := lv.Labels[i], prev.Labels[i]
			if c < 0 || p < 0 {
				continue
			}
			if counts[c] == nil {
				counts[c] = map[int]int{}
			}
			counts[c][p]++
		}
		kids := make([][]int, prev.NClusters)
		for c := range parent {
			best, bc := -1, 0
			for p, k := range counts[c] {
				if k > bc || k == bc && p < best {
					best, bc = p, k
				}
			}
			parent[c] = best
			if best >= 0 {
				kids[best] = append(kids[best], c)
			}
		}
		next := make([]int, lv.NClusters)
		for p, ks := range kids {
			node := cur[p]
			if len(ks) == 1 {
				next[ks[0]] = node
				nodes[node].Last = l
				nodes[node].Height = lv.Q
				continue
			}
			if len(ks) > 1 {
				nodes[node].Height = lv.Q
				for _, c := range ks {
					next[c] = newNode(node, l, lv.Sizes[c])
				}
			}
		}
		for c, p := range parent {
			if p < 0 { // no labelled member before: hang it from the root
				next[c] = newNode(0, l, lv.Sizes[c])
			}
		}
		cur = next
	}
	return nodes
}

// Newick returns the tree of clusters in Newick format. Leaves and internal
// nodes are named c<ID>_n<size>; the branch lengths are differences of
// Node.Height, and the root carries its own height, so the path length from
// the top to any node is the q at which that cluster splits (leaves: the q
// of the last level where they exist).
func (h *Hierarchy) Newick() string {
	if len(h.Nodes) == 0 {
		return ";"
	}
	var b strings.Builder
	var walk func(id int, ph float64)
	walk = func(id int, ph float64) {
		nd := h.Nodes[id]
		if len(nd.Children) > 0 {
			b.WriteByte('(')
			for i, c := range nd.Children {
				if i > 0 {
					b.WriteByte(',')
				}
				walk(c, nd.Height)
			}
			b.WriteByte(')')
		}
		fmt.Fprintf(&b, "c%d_n%d:%s", nd.ID, nd.Size, strconv.FormatFloat(nd.Height-ph, 'g', 6, 64))
	}
	walk(0, 0)
	b.WriteByte(';')
	return b.String()
}

// WriteJSON writes the hierarchy (levels table, tree nodes, Newick string)
// as indented JSON.
func (h *Hierarchy) WriteJSON(w io.Writer) error {
	out := struct {
		*Hierarchy
		Newick string `json:"newick"`
	}{h, h.Newick()}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteTable writes the (q, C, clusters, n_sv, n_bsv) table of the sweep as
// tab-separated text with a header.
func (h *Hierarchy) WriteTable(w io.Writer) error {
	if _, err := fmt.Fprintln(w, "level\tq\tC\t1/(NC)\tclusters\tn_sv\tn_bsv\t(n_sv+n_bsv)/N"); err != nil {
		return err
	}
	for i, l := range h.Levels {
		mark := ""
		if i == h.Chosen {
			mark = "\t<- chosen"
		}
		if _, err := fmt.Fprintf(w, "%d\t%.6g\t%.6g\t%.4g\t%d\t%d\t%d\t%.4f%s\n",
			i, l.Q, l.C, l.P, l.NClusters, l.NSV, l.NBSV, l.PError, mark); err != nil {
			return err
		}
	}
	return nil
}
