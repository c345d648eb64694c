package kernel

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestGraphKernel(t *testing.T) {
	// a path 0-1-2 plus the edge 1-3: degrees 1, 3, 1, 1, so Δ = 3
	g, err := ReadEdges(strings.NewReader("# comment\n0 1\n1\t2\n\n3,1\n"), "g.txt")
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != 4 || g.Edges() != 3 || g.MaxDegree() != 3 {
		t.Fatalf("n %d, edges %d, Δ %d", g.Len(), g.Edges(), g.MaxDegree())
	}
	want := mat.NewSymDense(4, []float64{
		3, 1, 0, 0,
		1, 3, 1, 1,
		0, 1, 3, 0,
		0, 1, 0, 3,
	})
	K, err := g.Sym(context.Background(), nil, []int{0, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(K, want) {
		t.Errorf("K =\n%v", mat.Formatted(K))
	}
	C, err := g.Cross(context.Background(), nil, []int{3, 2}, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(C, mat.NewDense(2, 2, []float64{1, 0, 1, 3})) {
		t.Errorf("cross =\n%v", mat.Formatted(C))
	}
	S, err := g.Sym(context.Background(), nil, []int{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(S, mat.NewSymDense(2, []float64{3, 1, 1, 3})) {
		t.Errorf("sub =\n%v", mat.Formatted(S))
	}
	// diagonally dominant: the smallest eigenvalue is ≥ 0
	var es mat.EigenSym
	es.Factorize(K, false)
	if v := es.Values(nil)[0]; v < -1e-12 {
		t.Errorf("smallest eigenvalue %v", v)
	}
}

func TestGraphKernelErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0 1\n2 2\n", "g.txt:2: kernel: bad edge list: self loop on node 2"},
		{"0 1\n1 0\n", "g.txt:2: kernel: bad edge list: edge (1, 0) repeats line 1"},
		{"0 1\n-1 3\n", "g.txt:2: kernel: bad edge list: negative node id -1"},
		{"0 1\n1 x\n", "g.txt:2: kernel: bad edge list: node id \"x\" is not an integer"},
		{"0 1 2\n", "g.txt:1: kernel: bad edge list: want two node ids \"u v\", got \"0 1 2\""},
		{"# nothing\n", "g.txt: kernel: bad edge list: no edges"},
	} {
		_, err := ReadEdges(strings.NewReader(tc.in), "g.txt")
		if err == nil || err.Error() != tc.want || !errors.Is(err, ErrEdges) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
	if _, err := NewGraphKernel(3, [][2]int{{0, 1}, {1, 1}}); !errors.Is(err, ErrEdges) {
		t.Errorf("self loop: %v", err)
	}
	if _, err := NewGraphKernel(3, [][2]int{{0, 1}, {1, 0}}); !errors.Is(err, ErrEdges) {
		t.Errorf("duplicate: %v", err)
	}
	if _, err := NewGraphKernel(3, [][2]int{{0, -1}}); !errors.Is(err, ErrEdges) {
		t.Errorf("negative: %v", err)
	}
}

// TestRBFMissing checks the §4.3 kernel on a hand-computed example: after
// z-scoring over observed entries (column 0 observed {1, 3, 2}: mean 2,
// sd sqrt(2/3); column 1 observed {4, 6, 4}: mean 14/3, sd sqrt(8/9)),
// K(u, v) =
// exp(−γ·mean over shared coordinates of the squared difference).
func TestRBFMissing(t *testing.T) {
	nan := math.NaN()
	X := mat.NewDense(4, 2, []float64{
		1, nan,
		3, 4,
		nan, 6,
		2, 4,
	})
	k, err := ParseRBFMissing("rbf-missing:0.5")
	if err != nil || k.Gamma != 0.5 || k.String() != "rbf-missing:0.5" {
		t.Fatalf("parse: %v %v", k, err)
	}
	g, err := k.Prepare(X)
	if err != nil {
		t.Fatal(err)
	}
	s0, s1 := math.Sqrt(2.0/3), math.Sqrt(8.0/9)
	lo, hi := (4-14.0/3)/s1, (6-14.0/3)/s1
	z := [][2]float64{{-1 / s0, nan}, {1 / s0, lo}, {nan, hi}, {0, lo}}
	ref := func(u, v int) float64 {
		var s float64
		c := 0
		for i := 0; i < 2; i++ {
			if !math.IsNaN(z[u][i]) && !math.IsNaN(z[v][i]) {
				s += (z[u][i] - z[v][i]) * (z[u][i] - z[v][i])
				c++
			}
		}
		return math.Exp(-0.5 * s / float64(c))
	}
	// rows 0 and 2 share nothing: the full matrix is an error naming them
	if _, err := g.Sym(context.Background(), nil, []int{0, 1, 2, 3}); err == nil || !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "rows 0 and 2") {
		t.Errorf("Sym over rows 0 and 2: %v", err)
	}
	K, err := g.Sym(context.Background(), nil, []int{0, 1, 3})
	if err != nil {
		t.Fatal(err)
	}
	rows := []int{0, 1, 3}
	for a, u := range rows {
		for b, v := range rows {
			if d := math.Abs(K.At(a, b) - ref(u, v)); d > 1e-15 {
				t.Errorf("K(%d,%d) = %v, want %v", u, v, K.At(a, b), ref(u, v))
			}
		}
	}
	C, err := g.Cross(context.Background(), nil, []int{2}, []int{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(C.At(0, 0)-ref(2, 1)) > 1e-15 || math.Abs(C.At(0, 1)-ref(2, 3)) > 1e-15 {
		t.Errorf("cross %v", mat.Formatted(C))
	}
	if _, err := g.Cross(context.Background(), nil, []int{2}, []int{0}); !errors.Is(err, ErrMissing) {
		t.Errorf("cross 2,0: %v", err)
	}
	// a row with every value missing
	_, err = k.Prepare(mat.NewDense(2, 2, []float64{1, 2, nan, nan}))
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "row 1") {
		t.Errorf("all-missing row: %v", err)
	}
	for _, s := range []string{"rbf-missing", "rbf-missing:0", "rbf-missing:x", "rbf:1"} {
		if _, err := ParseRBFMissing(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}
