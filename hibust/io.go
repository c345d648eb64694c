package hibust

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/internal/modelio"
)

// formatName and formatVersion identify the saved model (JSON).
const (
	formatName    = "arbor-hibust"
	formatVersion = 1
)

type modelJSON struct {
	Format       string   `json:"format"`
	Version      int      `json:"version"`
	Classes      []int    `json:"classes"`
	NTrain       int      `json:"n_train"`
	Transduction []int    `json:"transduction"`
	Clusters     int      `json:"clusters"`
	Silhouette   float64  `json:"silhouette"`
	Confident    []int    `json:"confident"`
	Iter         int      `json:"iter"`
	Converged    bool     `json:"converged"`
	Warnings     []string `json:"warnings,omitempty"`
	Nodes        []Node   `json:"nodes"`
}

// Save writes the model as JSON: {"format": "arbor-hibust", "version": 1,
// "classes", "n_train", "transduction", "clusters", "silhouette",
// "confident", "iter", "converged", "warnings", "nodes"} with the nodes in
// preorder as Node's JSON fields (root first).
func (m *Model) Save(w io.Writer) error {
	mj := modelJSON{Format: formatName, Version: formatVersion, Classes: m.classes, NTrain: m.n,
		Transduction: m.transduction, Clusters: m.Clusters, Silhouette: m.Silhouette,
		Confident: m.confident, Iter: m.Iter, Converged: m.Converged, Nodes: m.nodes}
	if mj.Confident == nil {
		mj.Confident = []int{}
	}
	for _, e := range m.Warnings {
		mj.Warnings = append(mj.Warnings, e.Error())
	}
	return modelio.Encode(w, mj)
}

// Load reads a model written by Save and checks it: the format and
// version, a binary tree in preorder whose internal nodes have routers on
// training rows, leaves with classes among Classes, and a transduction of
// NTrain labels. Errors wrap ErrFormat.
func Load(r io.Reader) (*Model, error) {
	var mj modelJSON
	if err := modelio.Decode(r, &mj, formatName, formatVersion, ErrFormat); err != nil {
		return nil, err
	}
	if mj.NTrain < 1 || len(mj.Transduction) != mj.NTrain {
		return nil, fmt.Errorf("%w: n_train %d with %d transductive labels", ErrFormat, mj.NTrain, len(mj.Transduction))
	}
	if len(mj.Nodes) == 0 || len(mj.Nodes)%2 == 0 {
		return nil, fmt.Errorf("%w: %d nodes: a binary tree has an odd number", ErrFormat, len(mj.Nodes))
	}
	if !slices.IsSorted(mj.Classes) || len(mj.Classes) < 2 {
		return nil, fmt.Errorf("%w: classes %v: want at least two, sorted", ErrFormat, mj.Classes)
	}
	if err := checkTree(mj.Nodes, mj.NTrain, mj.Classes); err != nil {
		return nil, err
	}
	for i, c := range mj.Transduction {
		if !slices.Contains(mj.Classes, c) {
			return nil, fmt.Errorf("%w: transduction[%d] = %d is not a class", ErrFormat, i, c)
		}
	}
	m := &Model{classes: mj.Classes, n: mj.NTrain, transduction: mj.Transduction, nodes: mj.Nodes,
		Clusters: mj.Clusters, Silhouette: mj.Silhouette, confident: mj.Confident, Iter: mj.Iter, Converged: mj.Converged}
	if len(m.confident) == 0 {
		m.confident = nil
	}
	for _, w := range mj.Warnings {
		m.Warnings = append(m.Warnings, errors.New(w))
	}
	return m, nil
}

// checkTree checks that nodes are a binary tree in preorder from node 0.
func checkTree(nodes []Node, n int, classes []int) error {
	next := 0
	var walk func(i int) error
	walk = func(i int) error {
		if i != next || i >= len(nodes) {
			return fmt.Errorf("%w: node %d is not in preorder", ErrFormat, i)
		}
		next++
		nd := nodes[i]
		for _, r := range append(slices.Clone(nd.Labeled), nd.SV...) {
			if r < 0 || r >= n {
				return fmt.Errorf("%w: node %d refers to row %d of %d", ErrFormat, i, r, n)
			}
		}
		if nd.Leaf {
			if nd.Left != -1 || nd.Right != -1 || len(nd.SV) > 0 {
				return fmt.Errorf("%w: leaf %d has children or a router", ErrFormat, i)
			}
			if !slices.Contains(classes, nd.Class) {
				return fmt.Errorf("%w: leaf %d has class %d, not among %v", ErrFormat, i, nd.Class, classes)
			}
			return nil
		}
		if len(nd.SV) != len(nd.Coef) {
			return fmt.Errorf("%w: node %d has %d support vectors and %d coefficients", ErrFormat, i, len(nd.SV), len(nd.Coef))
		}
		for _, v := range append(slices.Clone(nd.Coef), nd.Rho, nd.Height) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: node %d has a non-finite number", ErrFormat, i)
			}
		}
		if err := walk(nd.Left); err != nil {
			return err
		}
		return walk(nd.Right)
	}
	if err := walk(0); err != nil {
		return err
	}
	if next != len(nodes) {
		return fmt.Errorf("%w: %d of %d nodes are not reachable from the root", ErrFormat, len(nodes)-next, len(nodes))
	}
	return nil
}
