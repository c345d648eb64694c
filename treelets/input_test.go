package treelets

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// TestParseSample: the text settings become the Sample; each mistake is
// an error naming its flag.
func TestParseSample(t *testing.T) {
	s, err := ParseSample("signed", "knn", 0.5, 10)
	if err != nil {
		t.Fatal(err)
	}
	if s.Similarity != Signed || s.Extend != ExtendKNN || s.Lambda != 0.5 || s.M != 10 {
		t.Errorf("ParseSample: %+v", s)
	}
	for _, c := range []struct {
		sim, ext string
		lambda   float64
		m        int
		want     string
	}{
		{"cos", "svm", 0, 0, "--similarity: "},
		{"abs", "tree", 0, 0, "--extend: "},
		{"abs", "svm", -1, 0, "--lambda must be ≥ 0, got -1"},
		{"abs", "svm", 0, 1, "--sample must be ≥ 2 (or 0 for every row), got 1"},
	} {
		if _, err := ParseSample(c.sim, c.ext, c.lambda, c.m); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseSample(%q, %q, %v, %d): %v, want %q", c.sim, c.ext, c.lambda, c.m, err, c.want)
		}
	}
}

// TestRowKernel: a point kernel's blocks are its Gram matrix, rbf:scale
// resolved on X; rbf-missing is recognised (also when in error) and takes
// NaN cells; a data-dependent kernel is refused.
func TestRowKernel(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{0, 0, 1, 0, 0, 2, 3, 1})
	k, err := ParseKernel("rbf:scale")
	if err != nil || k.Missing() {
		t.Fatalf("rbf:scale: %v, missing %v", err, k.Missing())
	}
	g, desc, err := k.Gram(X)
	if err != nil {
		t.Fatal(err)
	}
	pk, gamma := kernel.Spec{Kind: kernel.KindPoint, Scale: true}.Resolve(X)
	if want := "rbf:" + strconv.FormatFloat(gamma, 'g', -1, 64); desc != want {
		t.Errorf("desc %q, want %q", desc, want)
	}
	K, err := g.Sym(context.Background(), nil, []int{0, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if want := pk.Eval(X.RawRowView(i), X.RawRowView(j)); math.Abs(K.At(i, j)-want) > 1e-12 {
				t.Errorf("K[%d,%d] = %v, want %v", i, j, K.At(i, j), want)
			}
		}
	}
	if k, err := ParseKernel("RBF-missing:x"); err == nil || !k.Missing() || !strings.HasPrefix(err.Error(), "--kernel: ") {
		t.Errorf("rbf-missing:x: %v, missing %v", err, k.Missing())
	}
	k, err = ParseKernel("rbf-missing:2")
	if err != nil || !k.Missing() {
		t.Fatalf("rbf-missing:2: %v", err)
	}
	X.Set(1, 1, math.NaN())
	if _, desc, err := k.Gram(X); err != nil || desc != "rbf-missing:2" {
		t.Errorf("rbf-missing:2 on a missing cell: %q, %v", desc, err)
	}
	if _, err := ParseKernel("hck:average"); err == nil || err.Error() != "--kernel hck:average: treelets take a point kernel (linear, poly, rbf, laplacian, exponential) or rbf-missing:GAMMA" {
		t.Errorf("hck:average: %v", err)
	}
}

// TestLeafNames: leaf i is named after item Rows[i].
func TestLeafNames(t *testing.T) {
	r := &SampleModel{Rows: []int{2, 5, 7}}
	if got := r.LeafNames(func(i int) string { return strconv.Itoa(10 * i) }); !slices.Equal(got, []string{"20", "50", "70"}) {
		t.Errorf("LeafNames %q", got)
	}
}
