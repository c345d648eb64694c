package main

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/s4vm"
	"gonum.org/v1/gonum/mat"
)

// nodeStudy compares the two node learners on the same binary
// sub-problems: for each repetition it builds HiBUST's tree (MCCK and
// Fig. 3 do not depend on the node learner), and at every internal node
// poses the problem the node would see with perfect routing from above
// (the node's labelled rows plus every unlabelled row whose true class
// has leaves in its subtree). The S4VM (reference defaults) and the
// inductive SVM (C = 100, S4VM's fallback) label the unlabelled rows;
// the score counts the rows whose class has leaves on one side only.
// Nodes are grouped by the smaller side's number of labelled rows.
func nodeStudy(ctx context.Context, name string, lo, reps int) error {
	p, err := load(ctx, name)
	if err != nil {
		return err
	}
	type agg struct{ nodes, rows, s4, svm, fell int }
	groups := map[string]*agg{}
	keys := []string{"≤ 2 labelled on the smaller side", "3–10", "> 10"}
	for _, k := range keys {
		groups[k] = &agg{}
	}
	for r := 0; r < reps; r++ {
		y, err := p.split(lo, r)
		if err != nil {
			return err
		}
		m, err := hibust.Classifier{Seed: uint64(r), Node: hibust.SVMNode{}}.FitGram(ctx, p.K, y)
		if err != nil {
			return err
		}
		nodes := m.Nodes()
		var classes func(i int) []int
		classes = func(i int) []int {
			if nodes[i].Leaf {
				return []int{nodes[i].Class}
			}
			return append(classes(nodes[i].Left), classes(nodes[i].Right)...)
		}
		for i, nd := range nodes {
			if nd.Leaf {
				continue
			}
			cl, cr := classes(nd.Left), classes(nd.Right)
			left, right := nodes[nd.Left].Labeled, nodes[nd.Right].Labeled
			rows := append(append([]int(nil), left...), right...)
			side := make([]int, 0, len(rows))
			for range left {
				side = append(side, 0)
			}
			for range right {
				side = append(side, 1)
			}
			var truth []int // per unlabelled row: 0, 1, or −1 (class on both sides)
			for j, c := range y {
				if c != hibust.Unlabeled {
					continue
				}
				inL, inR := slices.Contains(cl, p.y[j]), slices.Contains(cr, p.y[j])
				if !inL && !inR {
					continue
				}
				rows = append(rows, j)
				side = append(side, hibust.Unlabeled)
				switch {
				case inL && inR:
					truth = append(truth, -1)
				case inL:
					truth = append(truth, 0)
				default:
					truth = append(truth, 1)
				}
			}
			K := subBlock(p.K, rows)
			a, err := s4vm.S4VM{Seed: uint64(r) + uint64(i)}.FitGram(ctx, K, side)
			if err != nil {
				return err
			}
			b, err := hibust.SVMNode{}.Transduce(ctx, K, side)
			if err != nil {
				return err
			}
			as := a.Transduction()
			g := groups[keys[2]]
			switch sm := min(len(left), len(right)); {
			case sm <= 2:
				g = groups[keys[0]]
			case sm <= 10:
				g = groups[keys[1]]
			}
			g.nodes++
			if a.Pairs[0].Fallback {
				g.fell++
			}
			off := len(left) + len(right)
			for k, t := range truth {
				if t < 0 {
					continue
				}
				g.rows++
				if as[off+k] == t {
					g.s4++
				}
				if b[off+k] == t {
					g.svm++
				}
			}
		}
		fmt.Fprintf(os.Stderr, "%s rep %d: %d clusters, %d nodes\n", name, r, m.Clusters, len(nodes))
	}
	fmt.Printf("HiBUST node problems on %s (LO %d, %d repetitions, perfect routing from above): accuracy of the side given to unlabelled rows\n\n", name, lo, reps)
	fmt.Printf("%-34s %6s %7s %9s %9s %9s\n", "smaller side", "nodes", "rows", "S4VM", "SVM C=100", "S4VM fell back")
	for _, k := range keys {
		g := groups[k]
		if g.nodes == 0 {
			continue
		}
		fmt.Printf("%-34s %6d %7d %9.4f %9.4f %9d\n", k, g.nodes, g.rows, float64(g.s4)/float64(g.rows), float64(g.svm)/float64(g.rows), g.fell)
	}
	return nil
}

func subBlock(K *mat.SymDense, rows []int) *mat.SymDense {
	m := len(rows)
	out := mat.NewSymDense(m, nil)
	for a, i := range rows {
		for b := a; b < m; b++ {
			out.SetSym(a, b, K.At(i, rows[b]))
		}
	}
	return out
}
