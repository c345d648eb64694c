package figure

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// TestProjectPCA compares Project's principal components of iris and
// wine (more than 2 features) with scikit-learn's PCA
// (testdata/gen_pca.py), both sides sign-normalised (largest entry of
// each component positive), and its axis labels' variance shares with
// explained_variance_ratio_. Tolerance: both are the SVD of the same
// centred matrix in float64, equal to rounding, 1e-9 of the largest score.
func TestProjectPCA(t *testing.T) {
	b, err := os.ReadFile("testdata/pca.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Sets []struct {
			Name  string
			Z     [][2]float64
			Ratio []float64
		}
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Sets) != 2 {
		t.Fatalf("%d reference sets", len(ref.Sets))
	}
	for _, set := range ref.Sets {
		ds, err := dataset.Embedded(set.Name)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := Project(ds.X, nil, ds.Features)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := pr.Z.Dims()
		if n != len(set.Z) {
			t.Fatalf("%s: %d rows, reference %d", set.Name, n, len(set.Z))
		}
		scale := 0.0
		for j := 0; j < 2; j++ {
			big, sign := 0.0, 1.0
			for i := 0; i < n; i++ {
				if v := pr.Z.At(i, j); math.Abs(v) > big {
					big, sign = math.Abs(v), math.Copysign(1, v)
				}
			}
			scale = math.Max(scale, big)
			for i := 0; i < n; i++ {
				if d := sign*pr.Z.At(i, j) - set.Z[i][j]; math.Abs(d) > 1e-9*big {
					t.Fatalf("%s: component %d row %d: %v, scikit-learn %v", set.Name, j+1, i, sign*pr.Z.At(i, j), set.Z[i][j])
				}
			}
		}
		for k, label := range []string{pr.XLabel, pr.YLabel} {
			want := fmt.Sprintf("principal component %d (%.1f %% of the variance)", k+1, 100*set.Ratio[k])
			if label != want {
				t.Errorf("%s: axis %q, want %q", set.Name, label, want)
			}
		}
	}
}

// TestProjectFeatures: two columns are drawn as they are, --plot-features
// picks columns by index and names the axes; bad input is ErrInput.
func TestProjectFeatures(t *testing.T) {
	X := mat.NewDense(3, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 10})
	pr, err := Project(X, []int{2, 0}, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if pr.XLabel != "c" || pr.YLabel != "a" || pr.Z.At(2, 0) != 10 || pr.Z.At(1, 1) != 4 {
		t.Errorf("features 3,1: %q %q %v", pr.XLabel, pr.YLabel, mat.Formatted(pr.Z))
	}
	pr, err = Project(X.Slice(0, 3, 1, 3), nil, nil)
	if err != nil || pr.XLabel != "feature 1" || pr.Z.At(0, 0) != 2 || pr.Z.At(0, 1) != 3 {
		t.Errorf("2 columns: %v %+v", err, pr)
	}
	nan := mat.NewDense(2, 3, []float64{1, 2, math.NaN(), 1, 2, 3})
	for name, c := range map[string]struct {
		X mat.Matrix
		f []int
	}{
		"1 column": {X.Slice(0, 3, 0, 1), nil}, "3 features": {X, []int{0, 1, 2}},
		"out of range": {X, []int{0, 3}}, "NaN": {nan, nil},
	} {
		if _, err := Project(c.X, c.f, nil); !errors.Is(err, ErrInput) {
			t.Errorf("%s: %v, want ErrInput", name, err)
		}
	}
}

// TestClustersPicture: the legend lists each cluster and then each true
// class beside the data area, the PNG has the stated size, two renderings
// are the same bytes, and mismatched input is ErrInput.
func TestClustersPicture(t *testing.T) {
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Project(ds.X, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int, ds.Len())
	for i := range labels {
		labels[i] = (ds.Y[i] + i%2) % 3 // clusters that mix the classes
	}
	labels[5] = -1
	opt := ClusterOptions{Title: "iris", XLabel: pr.XLabel, YLabel: pr.YLabel, Truth: ds.Y, Classes: []string{"setosa", "versicolor", "virginica"}}
	f, err := Clusters(pr.Z, labels, opt)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder.Canvas{}
	c := draw.Canvas{Canvas: rec, Rectangle: vg.Rectangle{Max: vg.Point{X: f.Width, Y: f.Height}}}
	p := f.Plots[0][0]
	drawPanel(p, c)
	texts := textAt(rec.Actions)
	data := p.DataCanvas(draw.Crop(c, 0, -(legendWidth(p, c) + legendGap), 0, 0))
	var prev vg.Length = math.MaxFloat64
	for _, name := range []string{"cluster 0", "cluster 1", "cluster 2", "noise", "class setosa", "class versicolor", "class virginica"} {
		pt, ok := texts[name]
		if !ok {
			t.Fatalf("legend entry %q not drawn; texts %v", name, texts)
		}
		if pt.X < data.Max.X || pt.Y >= prev {
			t.Errorf("legend entry %q at %v: inside the data area (right edge %v) or out of order", name, pt, data.Max.X)
		}
		prev = pt.Y
	}
	render := func() []byte {
		var b bytes.Buffer
		if err := f.WriteTo(&b, ".png"); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	first := render()
	img, err := png.Decode(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != int(f.Width.Dots(96)) || h != int(f.Height.Dots(96)) {
		t.Errorf("PNG %d×%d, figure %v×%v", w, h, f.Width, f.Height)
	}
	if !bytes.Equal(first, render()) {
		t.Error("two renderings differ")
	}
	if _, err := Clusters(pr.Z, labels[1:], opt); !errors.Is(err, ErrInput) {
		t.Errorf("short labels: %v", err)
	}
	opt.Truth = ds.Y[1:]
	if _, err := Clusters(pr.Z, labels, opt); !errors.Is(err, ErrInput) {
		t.Errorf("short truth: %v", err)
	}
	if _, err := Clusters(ds.X, labels, ClusterOptions{}); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "Project") {
		t.Errorf("4-D points: %v", err)
	}
}
