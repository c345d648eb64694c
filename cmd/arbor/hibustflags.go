package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/learner"
)

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
func (t *treeFlags) check(ln learner.Learner) error {
	if t.tree == "" && t.dendrogram == "" {
		return nil
	}
	if _, ok := learner.As[hibust.Classifier](ln); !ok {
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
	if err := hm.WriteSummary(info, classes); err != nil {
		return err
	}
	if t.tree != "" {
		if err := atomicfile.Write(t.tree, func(f *os.File) error { return hm.Save(f) }); err != nil {
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
