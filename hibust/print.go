package hibust

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Side describes one side of an internal node's binary sub-problem: the
// classes of the leaves below it and their labelled rows.
type Side struct {
	Classes []int // sorted, distinct
	Labeled int   // labelled (and confidence-labelled) rows
	Leaves  int
}

// Subproblem returns the two sides of internal node i (left = side 0,
// right = side 1). For a leaf both sides are the leaf itself.
func (m *Model) Subproblem(i int) (left, right Side) {
	nd := m.nodes[i]
	if nd.Leaf {
		s := m.side(i)
		return s, s
	}
	return m.side(nd.Left), m.side(nd.Right)
}

func (m *Model) side(i int) Side {
	var s Side
	var walk func(j int)
	walk = func(j int) {
		nd := m.nodes[j]
		if nd.Leaf {
			s.Leaves++
			if !slices.Contains(s.Classes, nd.Class) {
				s.Classes = append(s.Classes, nd.Class)
			}
			return
		}
		walk(nd.Left)
		walk(nd.Right)
	}
	walk(i)
	slices.Sort(s.Classes)
	s.Labeled = len(m.nodes[i].Labeled)
	return s
}

// className returns names[c] when there is one, else the number.
func className(c int, names []string) string {
	if c >= 0 && c < len(names) {
		return names[c]
	}
	return strconv.Itoa(c)
}

// Describe writes a side as "setosa+virginica (2 leaves, 20 labelled)".
func (s Side) Describe(names []string) string {
	cs := make([]string, len(s.Classes))
	for i, c := range s.Classes {
		cs[i] = className(c, names)
	}
	leaves := "1 leaf"
	if s.Leaves != 1 {
		leaves = fmt.Sprintf("%d leaves", s.Leaves)
	}
	return fmt.Sprintf("%s (%s, %d labelled)", strings.Join(cs, "+"), leaves, s.Labeled)
}

// WriteTree prints the tree, one node a line, indented by depth: each
// internal node with its binary sub-problem (left side vs right side), the
// distance of the centroids it merged and how many unlabelled rows it sent
// each way; each leaf with its class, MCCK clusters and the rows that
// reached it. names, if not nil, gives class names by label.
func (m *Model) WriteTree(w io.Writer, names []string) error {
	bw := bufio.NewWriter(w)
	var walk func(i int, prefix, branch string)
	walk = func(i int, prefix, branch string) {
		nd := m.nodes[i]
		if nd.Leaf {
			cl := make([]string, len(nd.Clusters))
			for a, c := range nd.Clusters {
				cl[a] = strconv.Itoa(c)
			}
			fmt.Fprintf(bw, "%s%sleaf %d: class %s  clusters %s, %d labelled, %d unlabelled reached\n",
				prefix, branch, i, className(nd.Class, names), strings.Join(cl, ","), len(nd.Labeled), nd.Reached)
			return
		}
		l, r := m.Subproblem(i)
		fmt.Fprintf(bw, "%s%snode %d: %s vs %s  height %.4g, %d unlabelled → %d left, %d right\n",
			prefix, branch, i, l.Describe(names), r.Describe(names), nd.Height, nd.Reached, nd.Sent[0], nd.Sent[1])
		next := prefix
		switch branch {
		case "├─ ":
			next += "│  "
		case "└─ ":
			next += "   "
		}
		walk(nd.Left, next, "├─ ")
		walk(nd.Right, next, "└─ ")
	}
	walk(0, "", "")
	return bw.Flush()
}
