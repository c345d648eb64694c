package figure

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

func lcgPoints(n int, seed uint64) *mat.Dense {
	X := mat.NewDense(n, 2, nil)
	s := seed
	for i := 0; i < n; i++ {
		for j := 0; j < 2; j++ {
			s = s*6364136223846793005 + 1442695040888963407
			X.Set(i, j, float64(s>>11)/(1<<53)+float64(3*(i%3)*j))
		}
	}
	return X
}

// checkFile asserts path is a complete PNG (decodable, wantW×wantH when
// > 0) or SVG (an <svg> root, closed), and that no temporary file is left.
func checkFile(t *testing.T, path string, wantW, wantH int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	switch filepath.Ext(path) {
	case ".png":
		if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
			t.Fatalf("%s: not a PNG", path)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if r := img.Bounds(); wantW > 0 && (r.Dx() != wantW || r.Dy() != wantH) {
			t.Fatalf("%s: %dx%d, want %dx%d", path, r.Dx(), r.Dy(), wantW, wantH)
		}
	case ".svg":
		s := string(b)
		if !strings.Contains(s, "<svg") || !strings.HasSuffix(strings.TrimSpace(s), "</svg>") {
			t.Fatalf("%s: not an SVG document", path)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Fatalf("temporary file %s left behind", e.Name())
		}
	}
}

func TestDendrogram(t *testing.T) {
	dir := t.TempDir()
	// ((0,1),(2,(3,4))) by hand, SciPy ids.
	tree := &hclust.Tree{N: 5, Merges: []hclust.Merge{
		{A: 3, B: 4, Height: 0.5, Size: 2},
		{A: 0, B: 1, Height: 1, Size: 2},
		{A: 2, B: 5, Height: 1.5, Size: 3},
		{A: 6, B: 7, Height: 4, Size: 5},
	}}
	cases := []DendrogramOptions{
		{Title: "plain"},
		{Labels: []string{"a", "b", "c", "d", "e"}, Cut: 2},
		{K: 3},
		{K: 1}, {K: 5},
	}
	for i, opt := range cases {
		f, err := Dendrogram(tree, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{".png", ".svg"} {
			path := filepath.Join(dir, fmt.Sprintf("d%d%s", i, ext))
			if err := f.Save(path); err != nil {
				t.Fatal(err)
			}
			checkFile(t, path, 576, 384)
		}
	}
	// The links of a cut dendrogram use one colour per cluster: with
	// Cut = 2, clusters {0,1} and {2,3,4} plus the grey root link.
	f, _ := Dendrogram(tree, DendrogramOptions{Cut: 2})
	var buf bytes.Buffer
	if err := f.WriteTo(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	svg := buf.String()
	for _, col := range []string{"#1F77B4", "#FF7F0E", "#B0B0B0"} {
		if !strings.Contains(svg, col) {
			t.Errorf("cut dendrogram lacks colour %s", col)
		}
	}
	if strings.Contains(svg, "#2CA02C") {
		t.Error("cut dendrogram has a third cluster colour")
	}
	// A tree from hclust on real points, single leaf, and errors.
	big, err := hclust.FromPoints(context.Background(), lcgPoints(60, 3), hclust.Average)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := Dendrogram(big, DendrogramOptions{K: 3}); err != nil {
		t.Fatal(err)
	} else if err := f.Save(filepath.Join(dir, "big.png")); err != nil {
		t.Fatal(err)
	}
	if f, err := Dendrogram(&hclust.Tree{N: 1}, DendrogramOptions{}); err != nil {
		t.Fatal(err)
	} else if err := f.Save(filepath.Join(dir, "one.svg")); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		t   *hclust.Tree
		opt DendrogramOptions
	}{
		{nil, DendrogramOptions{}},
		{&hclust.Tree{N: 3, Merges: tree.Merges[:1]}, DendrogramOptions{}},
		{&hclust.Tree{N: 2, Merges: []hclust.Merge{{A: 0, B: 2, Height: 1}}}, DendrogramOptions{}},
		{&hclust.Tree{N: 2, Merges: []hclust.Merge{{A: 0, B: 1, Height: math.NaN()}}}, DendrogramOptions{}},
		{tree, DendrogramOptions{Labels: []string{"a"}}},
		{tree, DendrogramOptions{K: 6}},
		{tree, DendrogramOptions{Cut: math.Inf(1)}},
	} {
		if _, err := Dendrogram(bad.t, bad.opt); !errors.Is(err, ErrInput) {
			t.Errorf("%+v: err = %v, want ErrInput", bad.opt, err)
		}
	}
}

func TestScatterAndRegions(t *testing.T) {
	dir := t.TempDir()
	X := lcgPoints(90, 1)
	y := make([]int, 90)
	for i := range y {
		y[i] = i % 3
		if i%5 == 0 {
			y[i] = -1
		}
	}
	f, err := Scatter(X, y, ScatterOptions{Title: "scatter", Classes: []string{"a", "b", "c"}, Labeled: []int{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Save(filepath.Join(dir, "s.png")); err != nil {
		t.Fatal(err)
	}
	checkFile(t, filepath.Join(dir, "s.png"), 576, 384)
	f, err = Embedding(X, nil, ScatterOptions{Width: 200, Height: 100})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Save(filepath.Join(dir, "e.svg")); err != nil {
		t.Fatal(err)
	}
	checkFile(t, filepath.Join(dir, "e.svg"), 0, 0)
	calls := 0
	pred := func(g *mat.Dense) ([]int, error) {
		calls++
		r, _ := g.Dims()
		out := make([]int, r)
		for i := range out {
			if g.At(i, 0) > 0.5 {
				out[i] = 1
			}
		}
		return out, nil
	}
	f, err = DecisionRegions(pred, X, y, RegionOptions{Grid: 50})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Errorf("predictor called %d times, want one batch", calls)
	}
	if err := f.Save(filepath.Join(dir, "r.png")); err != nil {
		t.Fatal(err)
	}
	checkFile(t, filepath.Join(dir, "r.png"), 576, 384)

	boom := errors.New("boom")
	if _, err := DecisionRegions(func(*mat.Dense) ([]int, error) { return nil, boom }, X, y, RegionOptions{}); !errors.Is(err, boom) {
		t.Errorf("predictor error: %v", err)
	}
	short := func(*mat.Dense) ([]int, error) { return []int{1}, nil }
	nan := mat.DenseCopyOf(X)
	nan.Set(4, 1, math.NaN())
	for name, err := range map[string]error{
		"short predictor": func() error { _, err := DecisionRegions(short, X, y, RegionOptions{}); return err }(),
		"nil predictor":   func() error { _, err := DecisionRegions(nil, X, y, RegionOptions{}); return err }(),
		"3-D regions": func() error {
			_, err := DecisionRegions(pred, mat.NewDense(3, 3, nil), nil, RegionOptions{})
			return err
		}(),
		"grid 1":         func() error { _, err := DecisionRegions(pred, X, y, RegionOptions{Grid: 1}); return err }(),
		"labels":         func() error { _, err := Scatter(X, y[:3], ScatterOptions{}); return err }(),
		"1 column":       func() error { _, err := Scatter(mat.NewDense(3, 1, nil), nil, ScatterOptions{}); return err }(),
		"NaN":            func() error { _, err := Scatter(nan, nil, ScatterOptions{}); return err }(),
		"labelled index": func() error { _, err := Scatter(X, y, ScatterOptions{Labeled: []int{90}}); return err }(),
		"nil X":          func() error { _, err := Scatter(nil, nil, ScatterOptions{}); return err }(),
	} {
		if !errors.Is(err, ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", name, err)
		}
	}
}

func TestContoursAndLine(t *testing.T) {
	dir := t.TempDir()
	X := lcgPoints(40, 2)
	circle := func(r2 float64) Field {
		return func(g *mat.Dense) ([]float64, error) {
			n, _ := g.Dims()
			z := make([]float64, n)
			for i := range z {
				dx, dy := g.At(i, 0)-0.5, g.At(i, 1)-3
				z[i] = dx*dx + dy*dy - r2
			}
			return z, nil
		}
	}
	var panels []ContourPanel
	for k, q := range []float64{1, 2, 4} {
		panels = append(panels, ContourPanel{Title: fmt.Sprintf("q = %g", q), F: circle(1 / q), X: X,
			Marks: []Marks{{Name: "SV", Idx: []int{k, 5}}, {Name: "BSV", Idx: []int{7}}}})
	}
	f, err := Contours(panels, ContourOptions{Grid: 60, Width: 200, Height: 200})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Save(filepath.Join(dir, "c.png")); err != nil {
		t.Fatal(err)
	}
	checkFile(t, filepath.Join(dir, "c.png"), 800, int(math.Round(200*96/72.0)))
	if err := f.Save(filepath.Join(dir, "c.svg")); err != nil {
		t.Fatal(err)
	}
	checkFile(t, filepath.Join(dir, "c.svg"), 0, 0)
	bad := panels[0]
	bad.Marks = []Marks{{Name: "x", Idx: []int{40}}}
	if _, err := Contours([]ContourPanel{bad}, ContourOptions{}); !errors.Is(err, ErrInput) {
		t.Errorf("mark index: %v", err)
	}
	if _, err := Contours(nil, ContourOptions{}); !errors.Is(err, ErrInput) {
		t.Errorf("no panels: %v", err)
	}
	nanF := ContourPanel{X: X, F: func(g *mat.Dense) ([]float64, error) {
		n, _ := g.Dims()
		z := make([]float64, n)
		for i := range z {
			z[i] = math.NaN()
		}
		return z, nil
	}}
	if _, err := Contours([]ContourPanel{nanF}, ContourOptions{}); !errors.Is(err, ErrInput) {
		t.Errorf("all-NaN field: %v", err)
	}

	f, err = Line([]Series{{Name: "clusters", X: []float64{0.5, 1, 2, 4}, Y: []float64{1, 2, 2, 5}}, {X: []float64{1, 2}, Y: []float64{3, 3}}},
		LineOptions{Title: "clusters vs q", XLabel: "q", YLabel: "clusters", Points: true, LogX: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Save(filepath.Join(dir, "l.svg")); err != nil {
		t.Fatal(err)
	}
	checkFile(t, filepath.Join(dir, "l.svg"), 0, 0)
	for _, s := range [][]Series{nil, {{X: []float64{1}, Y: nil}}, {{X: []float64{math.Inf(1)}, Y: []float64{1}}}} {
		if _, err := Line(s, LineOptions{}); !errors.Is(err, ErrInput) {
			t.Errorf("%v: err = %v", s, err)
		}
	}
	if _, err := Line([]Series{{X: []float64{0, 1}, Y: []float64{1, 1}}}, LineOptions{LogX: true}); !errors.Is(err, ErrInput) {
		t.Errorf("LogX with 0: %v", err)
	}
}

func TestSaveErrors(t *testing.T) {
	dir := t.TempDir()
	f, err := Scatter(lcgPoints(5, 1), nil, ScatterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"x.jpg", "x", "x.png.txt", "x.PDF"} {
		if err := f.Save(filepath.Join(dir, name)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
	}
	if err := f.Save(filepath.Join(dir, "missing", "x.png")); err == nil || errors.Is(err, ErrFormat) {
		t.Errorf("missing directory: err = %v", err)
	}
	if err := f.Save(filepath.Join(dir, "X.SVG")); err != nil {
		t.Errorf("upper-case extension: %v", err)
	}
	// Replacing an existing file is atomic and leaves no temporary file.
	path := filepath.Join(dir, "again.png")
	for i := 0; i < 2; i++ {
		if err := f.Save(path); err != nil {
			t.Fatal(err)
		}
	}
	checkFile(t, path, 576, 384)
	if err := (&Figure{}).WriteTo(io.Discard, "png"); !errors.Is(err, ErrInput) {
		t.Errorf("empty figure: %v", err)
	}
	if err := f.WriteTo(io.Discard, "gif"); !errors.Is(err, ErrFormat) {
		t.Errorf("gif: %v", err)
	}
}

func BenchmarkDendrogram(b *testing.B) {
	for _, n := range []int{200, 1000} {
		tree, err := hclust.FromPoints(context.Background(), lcgPoints(n, 4), hclust.Average)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				f, err := Dendrogram(tree, DendrogramOptions{K: 4})
				if err != nil {
					b.Fatal(err)
				}
				if err := f.WriteTo(io.Discard, "png"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecisionRegions(b *testing.B) {
	X := lcgPoints(300, 5)
	pred := func(g *mat.Dense) ([]int, error) {
		r, _ := g.Dims()
		out := make([]int, r)
		for i := range out {
			out[i] = int(g.At(i, 1)) % 3
		}
		return out, nil
	}
	b.Run("n=300/grid=200", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			f, err := DecisionRegions(pred, X, nil, RegionOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if err := f.WriteTo(io.Discard, "png"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
