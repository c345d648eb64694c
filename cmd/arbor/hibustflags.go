package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/s4vm"
	"github.com/arbor-ml/arbor/ssl"
)

// registerHibust adds hibust's own flags; the node S4VMs take --C1 --C2
// --samples --lambda, and --seed seeds both MCCK and the S4VMs.
func (t *transFlags) registerHibust(fs interface {
	Float64Var(p *float64, name string, value float64, usage string)
	IntVar(p *int, name string, value int, usage string)
}) {
	fs.IntVar(&t.restarts, "restarts", 10, "hibust: MCCK runs; the partition with the best simplified silhouette is kept")
	fs.Float64Var(&t.theta, "theta", 0, "hibust: confidence labelling threshold θ in (0, 1] (paper 003 §3.2); 0 = off")
}

// hibust builds the HiBUST learner from the flags.
func (t *transFlags) hibust() (ssl.Learner, error) {
	for _, f := range []struct {
		flag string
		v    float64
	}{{"--C1", t.C1}, {"--C2", t.C2}, {"--lambda", t.lambda}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return nil, usageError("%s must be positive, got %v", f.flag, f.v)
		}
	}
	if t.samples < 10 {
		return nil, usageError("--samples must be ≥ 10 (the candidates are grouped into samples/10 ≥ 1), got %d", t.samples)
	}
	if t.restarts < 1 {
		return nil, usageError("--restarts must be ≥ 1, got %d", t.restarts)
	}
	if t.theta != 0 && !(t.theta > 0 && t.theta <= 1) {
		return nil, usageError("--theta must lie in (0, 1] (0 = no confidence labelling), got %v", t.theta)
	}
	c := hibust.Classifier{Restarts: t.restarts, Theta: t.theta, Seed: t.seed,
		S4VM: s4vm.S4VM{C1: t.C1, C2: t.C2, Samples: t.samples, Lambda: t.lambda, Seed: t.seed}}
	if err := c.Validate(); err != nil {
		return nil, usageError("%v", err)
	}
	return hibust.Learner{Classifier: c}, nil
}

// treeFlags are classify's outputs of a fitted HiBUST tree.
type treeFlags struct {
	tree, dendrogram string
}

func (t *treeFlags) register(fs interface {
	StringVar(p *string, name, value, usage string)
}) {
	fs.StringVar(&t.tree, "tree", "", "hibust: save the fitted tree (JSON, hibust.Load reads it) to this file")
	fs.StringVar(&t.dendrogram, "dendrogram", "", "hibust: draw the tree with each node's binary sub-problem (.svg or .png)")
}

// check fails before any work when the outputs cannot be written.
func (t *treeFlags) check(ln ssl.Learner) error {
	if t.tree == "" && t.dendrogram == "" {
		return nil
	}
	if _, ok := ln.(hibust.Learner); !ok {
		return usageError("--tree and --dendrogram are for --learner hibust, not %s", ln.Name())
	}
	if t.dendrogram != "" {
		switch strings.ToLower(filepath.Ext(t.dendrogram)) {
		case ".svg", ".png":
		default:
			return usageError("--dendrogram %s: want a .svg or .png file", t.dendrogram)
		}
	}
	return nil
}

// write saves and draws the tree of a fitted HiBUST model and prints it.
func (t *treeFlags) write(info io.Writer, m learner.Model, classes []string) error {
	hm, ok := m.(*hibust.Model)
	if !ok {
		return nil
	}
	fmt.Fprintf(info, "hibust   %d MCCK clusters (silhouette %.3f), %d confidence-labelled rows; tree:\n", hm.Clusters, hm.Silhouette, len(hm.Confident()))
	if err := hm.WriteTree(info, classes); err != nil {
		return err
	}
	if t.tree != "" {
		if err := writeAtomic(t.tree, func(f *os.File) error { return hm.Save(f) }); err != nil {
			return err
		}
		fmt.Fprintf(info, "wrote    %s\n", t.tree)
	}
	if t.dendrogram != "" {
		f, err := figure.HiBUSTTree(hm, figure.HiBUSTOptions{Classes: classes})
		if err != nil {
			return err
		}
		if err := f.Save(t.dendrogram); err != nil {
			return err
		}
		fmt.Fprintf(info, "wrote    %s\n", t.dendrogram)
	}
	return nil
}
