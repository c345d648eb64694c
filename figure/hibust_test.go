package figure_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/ssl"
)

// TestHiBUSTTree draws a fitted tree (iris, 10 labelled per class) in
// both formats.
func TestHiBUSTTree(t *testing.T) {
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	l, _ := ssl.PerClass(ds.Y, 10, 0)
	y := make([]int, ds.Len())
	for i := range y {
		y[i] = hibust.Unlabeled
	}
	for _, i := range l {
		y[i] = ds.Y[i]
	}
	m, err := hibust.Classifier{Node: hibust.SVMNode{}, Seed: 1}.Fit(context.Background(), dataset.MinMax(ds.X), y)
	if err != nil {
		t.Fatal(err)
	}
	f, err := figure.HiBUSTTree(m, figure.HiBUSTOptions{Classes: ds.Classes})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if d := os.Getenv("HIBUST_FIG"); d != "" {
		dir = d
	}
	for _, name := range []string{"tree.png", "tree.svg"} {
		if err := f.Save(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Save(filepath.Join(dir, "tree.pdf")); err == nil {
		t.Error("tree.pdf saved; want ErrFormat")
	}
}

// syntheticTree returns a HiBUST model over L leaves (classes 0..2 in
// turn) whose splits an LCG places (caterpillar: every split after the
// first leaf), loaded through hibust.Load as a saved model would be.
func syntheticTree(t *testing.T, L int, caterpillar bool) *hibust.Model {
	t.Helper()
	var nodes []map[string]any
	s := uint64(7)
	var build func(lo, hi int) int
	build = func(lo, hi int) int {
		i := len(nodes)
		nodes = append(nodes, map[string]any{"labeled": []int{lo % 10}, "rho": 0, "height": 0})
		if hi-lo == 1 {
			nodes[i]["leaf"], nodes[i]["class"], nodes[i]["left"], nodes[i]["right"] = true, lo%3, -1, -1
			return i
		}
		s = s*6364136223846793005 + 1442695040888963407
		mid := lo + 1
		if !caterpillar {
			mid = lo + 1 + int(s>>33)%(hi-lo-1)
		}
		nodes[i]["class"] = -1
		l := build(lo, mid)
		r := build(mid, hi)
		nodes[i]["left"], nodes[i]["right"], nodes[i]["reached"], nodes[i]["sent"] = l, r, hi-lo, []int{mid - lo, hi - mid}
		return i
	}
	build(0, L)
	b, err := json.Marshal(map[string]any{"format": "arbor-hibust", "version": 1, "classes": []int{0, 1, 2}, "n_train": 10,
		"transduction": make([]int, 10), "nodes": nodes})
	if err != nil {
		t.Fatal(err)
	}
	m, err := hibust.Load(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestHiBUSTTreeFitsPage: at any number of leaves the picture keeps at
// most HiBUSTLeaves leaves (every leaf up to HiBUSTAutoLeaves), the
// drawn leaves and "[n leaves]" subtrees add up to every leaf, the key
// has one line per drawn node, and the PNG has the figure's size, at most
// HiBUSTMaxWidth (1,536 px) wide.
func TestHiBUSTTreeFitsPage(t *testing.T) {
	leafRE := regexp.MustCompile(`^\[(\d+) leaves\] `)
	for _, c := range []struct {
		L           int
		caterpillar bool
		opt         figure.HiBUSTOptions
		want        int
	}{
		{2, false, figure.HiBUSTOptions{}, 2},
		{24, false, figure.HiBUSTOptions{}, 24},
		{25, false, figure.HiBUSTOptions{}, figure.HiBUSTDefaultLeaves},
		{200, false, figure.HiBUSTOptions{}, figure.HiBUSTDefaultLeaves},
		{200, true, figure.HiBUSTOptions{}, figure.HiBUSTDefaultLeaves},
		{1000, false, figure.HiBUSTOptions{Leaves: 12}, 12},
		{60, false, figure.HiBUSTOptions{Leaves: -1}, 60},
	} {
		name := fmt.Sprintf("L=%d caterpillar=%v leaves=%d", c.L, c.caterpillar, c.opt.Leaves)
		m := syntheticTree(t, c.L, c.caterpillar)
		if got := figure.HiBUSTLeaves(c.L, c.opt); got != c.want {
			t.Errorf("%s: HiBUSTLeaves = %d, want %d", name, got, c.want)
		}
		f, err := figure.HiBUSTTree(m, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		p := f.Plots[0][0]
		ticks := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
		if len(ticks) != c.want {
			t.Errorf("%s: %d leaves drawn, want %d", name, len(ticks), c.want)
		}
		sum := 0
		for _, tk := range ticks {
			if mm := leafRE.FindStringSubmatch(tk.Label); mm != nil {
				n, _ := strconv.Atoi(mm[1])
				sum += n
			} else {
				sum++
			}
		}
		if sum != c.L {
			t.Errorf("%s: drawn leaves stand for %d leaves, want %d", name, sum, c.L)
		}
		if f.Key == nil || len(f.Key.Lines) != len(ticks)-1 {
			t.Errorf("%s: key %v, want %d lines", name, f.Key, len(ticks)-1)
		}
		var buf bytes.Buffer
		if err := f.WriteTo(&buf, ".png"); err != nil {
			t.Fatal(err)
		}
		if d := os.Getenv("HIBUST_FIG"); d != "" {
			os.WriteFile(filepath.Join(d, fmt.Sprintf("synthetic_%d_%v.png", c.L, c.caterpillar)), buf.Bytes(), 0o644)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w, h := img.Bounds().Dx(), img.Bounds().Dy()
		wantW, wantH := int(math.Ceil(f.Width.Dots(96))), int(math.Ceil(f.Height.Dots(96)))
		if w > wantW || w < wantW-1 || h > wantH || h < wantH-1 || w > 1536 {
			t.Errorf("%s: PNG %d×%d, figure %v×%v (%d×%d px), want ≤ 1536 wide", name, w, h, f.Width, f.Height, wantW, wantH)
		}
	}
}
