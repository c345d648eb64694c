package propagate

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// TestKDTreeEqualsBruteForce: the internal/neighbors kNN graph (k-d tree,
// and blocked brute force for d = 25) equals the brute-force
// scan, ties (duplicated and grid points) included.
func TestKDTreeEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{1, 2, 3, 5, 12, 25} {
		n := 700
		data := make([]float64, n*d)
		for i := range data {
			data[i] = math.Round(rng.Float64()*8) / 2 // a coarse grid: many ties
		}
		copy(data[d*10:d*11], data[0:d]) // an exact duplicate
		for _, k := range []int{1, 7, 20} {
			tree, err := knnGraphPoints(context.Background(), data, n, d, k)
			if err != nil {
				t.Fatal(err)
			}
			brute, err := knnGraph(context.Background(), n, k, func(i int, out []float64) {
				for j := range out {
					s := 0.0
					for a := 0; a < d; a++ {
						u := data[i*d+a] - data[j*d+a]
						s += u * u
					}
					out[j] = s
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tree.col, brute.col) {
				t.Errorf("d=%d k=%d: k-d tree neighbours differ from brute force", d, k)
			}
		}
	}
}

func fixtureSet(t *testing.T, name string) (*mat.Dense, []int, set) {
	for _, s := range loadSets(t) {
		if s.Name == name {
			X, y := s.data()
			return X, y, s
		}
	}
	t.Fatalf("no set %s", name)
	return nil, nil, set{}
}

func TestGOMAXPROCS(t *testing.T) {
	X, y, _ := fixtureSet(t, "random3")
	ctx := context.Background()
	run := func(p int) []*Model {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(p))
		var out []*Model
		for _, aff := range []Affinity{{Kind: RBF, Gamma: 1}, {Kind: KNN}} {
			for _, m := range []string{Closed, Iterative} {
				r, err := Propagation{Affinity: aff, Method: m}.Fit(ctx, X, y)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, r)
				s, err := Spreading{Affinity: aff, Method: m}.Fit(ctx, X, y)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, s)
			}
		}
		return out
	}
	a, b := run(1), run(2)
	for i := range a {
		if !mat.Equal(a[i].Distributions, b[i].Distributions) || a[i].Iter != b[i].Iter {
			t.Errorf("result %d depends on GOMAXPROCS", i)
		}
	}
}

// TestFitGram: a precomputed RBF matrix equals the rbf affinity; rbf and knn
// affinities over a linear Gram matrix equal those over the points.
func TestFitGram(t *testing.T) {
	X, y, _ := fixtureSet(t, "random3")
	ctx := context.Background()
	W, err := kernel.Gram(ctx, nil, kernel.RBF{Gamma: 1}, X)
	if err != nil {
		t.Fatal(err)
	}
	lin, _ := kernel.Gram(ctx, nil, kernel.Linear{}, X)
	ref, _ := Propagation{Affinity: Affinity{Gamma: 1}}.Fit(ctx, X, y)
	pre, err := Propagation{}.FitGram(ctx, W, y)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(ref.Distributions, pre.Distributions, 1e-12) {
		t.Error("precomputed W differs from the rbf affinity")
	}
	viaK, err := Propagation{Affinity: Affinity{Kind: RBF, Gamma: 1}}.FitGram(ctx, lin, y)
	if err != nil {
		t.Fatal(err)
	}
	// kernel-induced distances of the linear kernel = Euclidean, up to cancellation
	if !mat.EqualApprox(ref.Distributions, viaK.Distributions, 1e-8) {
		t.Error("rbf over a linear Gram matrix differs from rbf over points")
	}
	kp, _ := Propagation{Affinity: Affinity{Kind: KNN}}.Fit(ctx, X, y)
	kg, err := Propagation{Affinity: Affinity{Kind: KNN}}.FitGram(ctx, lin, y)
	if err != nil {
		t.Fatal(err)
	}
	// 1e-7: the point path solves in k-d tree order, the Gram path in index
	// order; both stop at relative residual 1e-10.
	if !slices.Equal(kp.Transduction(), kg.Transduction()) || !mat.EqualApprox(kp.Distributions, kg.Distributions, 1e-7) {
		t.Error("knn over a linear Gram matrix differs from knn over points")
	}
	kk, err := Propagation{Affinity: Affinity{Kind: Kernel, Kernel: kernel.RBF{Gamma: 1}}}.Fit(ctx, X, y)
	if err != nil || !mat.Equal(kk.Distributions, ref.Distributions) {
		t.Errorf("kernel affinity differs from rbf: %v", err)
	}
}

// TestMultiLabel: each label column is the harmonic solution of its own
// binary problem; iterating (paper 002 §3) reaches it.
func TestMultiLabel(t *testing.T) {
	X, y, s := fixtureSet(t, "random3")
	ctx := context.Background()
	sets := make([][]int, len(y))
	for _, i := range s.Labeled {
		sets[i] = []int{y[i]}
		if X.At(i, 1) > 0.5 {
			sets[i] = append(sets[i], 3)
		}
	}
	// label 3 needs a positive and a negative example among the labelled
	p := Propagation{Affinity: Affinity{Kind: RBF, Gamma: 1}}
	ml, err := p.FitSets(ctx, X, sets)
	if err != nil {
		t.Fatal(err)
	}
	for c := 0; c < 4; c++ {
		yb := make([]int, len(y))
		for i := range yb {
			yb[i] = dataset.Unlabeled
		}
		for _, i := range s.Labeled {
			yb[i] = 0
			if slices.Contains(sets[i], c) {
				yb[i] = 1
			}
		}
		bin, err := p.Fit(ctx, X, yb)
		if err != nil {
			t.Fatal(err)
		}
		for i := range y {
			if math.Abs(ml.Distributions.At(i, c)-bin.Distributions.At(i, 1)) > 1e-8 {
				t.Fatalf("label %d row %d: %v vs binary %v", c, i, ml.Distributions.At(i, c), bin.Distributions.At(i, 1))
			}
		}
	}
	for i, set := range ml.Sets {
		for c := 0; c < 4; c++ {
			if slices.Contains(set, c) != (ml.Distributions.At(i, c) >= 0.5) {
				t.Fatalf("row %d: set %v, scores %v", i, set, ml.Distributions.RawRowView(i))
			}
		}
	}
	it, err := Propagation{Affinity: p.Affinity, Method: Iterative, Tol: 1e-12, MaxIter: 100000}.FitSets(ctx, X, sets)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(it.Distributions, ml.Distributions, 1e-6) {
		t.Error("multi-label iteration differs from the closed form")
	}
}

// TestDisconnected: two far clusters, labels only in the first: the second
// cluster's points are named in the error, or left Unlabeled on request;
// never NaN.
func TestDisconnected(t *testing.T) {
	ctx := context.Background()
	X := mat.NewDense(8, 1, []float64{0, 0.1, 0.2, 0.3, 100, 100.1, 100.2, 0.15})
	u := dataset.Unlabeled
	y := []int{0, u, u, 1, u, u, u, u}
	for _, aff := range []Affinity{{Kind: RBF, Gamma: 20}, {Kind: KNN, K: 3}} {
		for _, m := range []string{Closed, Iterative} {
			_, err := Propagation{Affinity: aff, Method: m}.Fit(ctx, X, y)
			if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "4, 5, 6") {
				t.Errorf("%v %s: %v", aff, m, err)
			}
			r, err := Propagation{Affinity: aff, Method: m, Unreachable: UnreachableUnlabeled}.Fit(ctx, X, y)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Unreachable, []int{4, 5, 6}) || len(r.Warnings) == 0 || !errors.Is(r.Warnings[0], ErrUnreachable) {
				t.Errorf("%v %s: unreachable %v warnings %v", aff, m, r.Unreachable, r.Warnings)
			}
			for i := 0; i < 8; i++ {
				for c := 0; c < 2; c++ {
					if math.IsNaN(r.Distributions.At(i, c)) {
						t.Fatalf("NaN at %d", i)
					}
				}
			}
			if r.Transduction()[4] != u || r.Transduction()[5] != u || r.Transduction()[6] != u || r.Transduction()[7] == u {
				t.Errorf("%v %s: transduction %v", aff, m, r.Transduction())
			}
			_, err = Spreading{Affinity: aff, Method: m}.Fit(ctx, X, y)
			if !errors.Is(err, ErrUnreachable) {
				t.Errorf("spreading %v %s: %v", aff, m, err)
			}
		}
	}
}

func TestNotConvergedIsAWarning(t *testing.T) {
	X, y, _ := fixtureSet(t, "two_moons")
	r, err := Propagation{Method: Iterative, MaxIter: 3}.Fit(context.Background(), X, y)
	if err != nil {
		t.Fatal(err)
	}
	if r.Converged || r.Iter != 3 || len(r.Warnings) != 1 || !errors.Is(r.Warnings[0], ErrNotConverged) {
		t.Errorf("converged %v iter %d warnings %v", r.Converged, r.Iter, r.Warnings)
	}
	// The closed form is the iterative method's fixed point or an error:
	// a partial solve is not a result.
	_, err = Propagation{MaxIter: 2}.Fit(context.Background(), X, y)
	if !errors.Is(err, ErrNotConverged) || !strings.Contains(err.Error(), "iterative method") {
		t.Errorf("closed: %v", err)
	}
}

// On wine (13 standardised features) rbf:20 leaves most points with
// weights below 1e-20 to all others: the solver's global residual is met
// while those points are far from harmonic. The closed form must not
// return labels then (it scored 62% where the iterative method scored 89%).
func TestClosedNarrowAffinityIsAnError(t *testing.T) {
	ds, err := dataset.Embedded("wine")
	if err != nil {
		t.Fatal(err)
	}
	X, _ := dataset.Scale(ds.X, "std")
	y := make([]int, len(ds.Y))
	for i := range y {
		y[i] = dataset.Unlabeled
	}
	for _, i := range []int{0, 1, 2, 3, 4, 60, 61, 62, 63, 64, 140, 141, 142, 143, 144} {
		y[i] = ds.Y[i]
	}
	_, err = Propagation{Affinity: Affinity{Kind: RBF, Gamma: 20}, Method: Closed}.Fit(context.Background(), X, y)
	if !errors.Is(err, ErrNotConverged) || !strings.Contains(err.Error(), "harmonic") {
		t.Errorf("rbf:20 closed: %v", err)
	}
	// a kNN affinity: closed and iterative agree
	a, err := Propagation{Affinity: Affinity{Kind: KNN, K: 10}, Method: Closed}.Fit(context.Background(), X, y)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Propagation{Affinity: Affinity{Kind: KNN, K: 10}, Method: Iterative, Tol: 1e-9, MaxIter: 100000}.Fit(context.Background(), X, y)
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for i, c := range a.Transduction() {
		if b.Transduction()[i] == c {
			same++
		}
	}
	if same != len(y) {
		t.Errorf("knn:10: closed and iterative agree on %d of %d", same, len(y))
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	X := mat.NewDense(5, 1, []float64{0, 1, 2, 3, 4})
	u := dataset.Unlabeled
	y := []int{0, 1, u, u, u}
	cases := []struct {
		name string
		p    Propagation
		X    mat.Matrix
		y    []int
		want error
	}{
		{"gamma<0", Propagation{Affinity: Affinity{Gamma: -1}}, X, y, ErrBadParam},
		{"knn k<0", Propagation{Affinity: Affinity{Kind: KNN, K: -1}}, X, y, ErrBadParam},
		{"knn k>n", Propagation{Affinity: Affinity{Kind: KNN, K: 6}}, X, y, ErrBadParam},
		{"kind", Propagation{Affinity: Affinity{Kind: "gauss"}}, X, y, ErrAffinity},
		{"precomputed on points", Propagation{Affinity: Affinity{Kind: Precomputed}}, X, y, ErrAffinity},
		{"nil kernel", Propagation{Affinity: Affinity{Kind: Kernel}}, X, y, ErrBadParam},
		{"method", Propagation{Method: "exact"}, X, y, ErrBadParam},
		{"tol", Propagation{Tol: -1}, X, y, ErrBadParam},
		{"maxiter", Propagation{MaxIter: -1}, X, y, ErrBadParam},
		{"policy", Propagation{Unreachable: "drop"}, X, y, ErrBadParam},
		{"all labelled", Propagation{}, X, []int{0, 1, 0, 1, 0}, ErrNoUnlabeled},
		{"none labelled", Propagation{}, X, []int{u, u, u, u, u}, ErrNoLabels},
		{"one class", Propagation{}, X, []int{0, 0, u, u, u}, ErrOneClass},
		{"empty class", Propagation{}, X, []int{0, 2, u, u, u}, ErrEmptyClass},
		{"empty class (Classes)", Propagation{Classes: 3}, X, y, ErrEmptyClass},
		{"label ≥ Classes", Propagation{Classes: 2}, X, []int{0, 2, u, u, u}, ErrBadLabel},
		{"label < -1", Propagation{}, X, []int{0, -2, u, u, u}, ErrBadLabel},
		{"length", Propagation{}, X, []int{0, 1}, ErrShape},
		{"NaN", Propagation{}, mat.NewDense(5, 1, []float64{0, 1, math.NaN(), 3, 4}), y, ErrNonFinite},
		{"negative kernel", Propagation{Affinity: Affinity{Kind: Kernel, Kernel: kernel.Linear{}}}, mat.NewDense(5, 1, []float64{-1, 1, 2, 3, 4}), y, ErrNegative},
	}
	for _, c := range cases {
		if _, err := c.p.Fit(ctx, c.X, c.y); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := (Spreading{Alpha: 1}).Fit(ctx, X, y); !errors.Is(err, ErrBadParam) {
		t.Errorf("alpha 1: %v", err)
	}
	if _, err := (Spreading{Alpha: -0.1}).Fit(ctx, X, y); !errors.Is(err, ErrBadParam) {
		t.Errorf("alpha < 0: %v", err)
	}
	K := mat.NewSymDense(5, nil)
	K.SetSym(1, 2, math.Inf(1))
	if _, err := (Propagation{}).FitGram(ctx, K, y); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Inf in W: %v", err)
	}
	K.SetSym(1, 2, -0.5)
	if _, err := (Propagation{}).FitGram(ctx, K, y); !errors.Is(err, ErrNegative) {
		t.Errorf("negative W: %v", err)
	}
	if _, err := (Propagation{}).FitGram(ctx, mat.NewSymDense(4, nil), y); !errors.Is(err, ErrShape) {
		t.Errorf("W shape: %v", err)
	}
	for _, s := range []string{"rbf:0", "rbf:-2", "rbf:x", "knn:0", "knn:2.5", "gauss:1", "precomputed:1"} {
		if _, err := ParseAffinity(s); err == nil {
			t.Errorf("ParseAffinity(%q) accepted", s)
		}
	}
	for s, want := range map[string]Affinity{"rbf": {Kind: RBF}, "rbf:0.5": {Kind: RBF, Gamma: 0.5}, "knn:7": {Kind: KNN, K: 7}, "precomputed": {Kind: Precomputed}} {
		if a, err := ParseAffinity(s); err != nil || a != want {
			t.Errorf("ParseAffinity(%q) = %+v, %v", s, a, err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := (Propagation{}).Fit(cctx, X, y); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestSpreadingTinyWeights: with a large RBF gamma every off-diagonal weight
// is ~1e-20 against W_ii = 1. S = D^{-1/2}W₀D^{-1/2} is still well scaled
// (neighbour entries ~1/2), so the scores must equal the closed form
// (1−α)(I − αS)^{-1}Y computed here from W₀ directly; forming W₀·x as
// W·x − W_ii·x_i loses every neighbour term (wrong labels, as scikit-learn's
// LabelSpreading shows on z-scored wine with gamma = 20).
func TestSpreadingTinyWeights(t *testing.T) {
	ctx := context.Background()
	const n, gamma, alpha = 10, 45.0, 0.2
	X := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		X.Set(i, 0, float64(i))
	}
	y := make([]int, n)
	for i := range y {
		y[i] = -1
	}
	y[0], y[n-1] = 0, 1
	// Reference: S from W₀, F = (1−α)(I − αS)^{-1}Y, rows normalised.
	W := mat.NewDense(n, n, nil)
	d := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j {
				v := math.Exp(-gamma * float64((i-j)*(i-j)))
				W.Set(i, j, v)
				d[i] += v
			}
		}
	}
	A := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s := W.At(i, j) / math.Sqrt(d[i]*d[j])
			v := -alpha * s
			if i == j {
				v++
			}
			A.Set(i, j, v)
		}
	}
	Y := mat.NewDense(n, 2, nil)
	Y.Set(0, 0, 1-alpha)
	Y.Set(n-1, 1, 1-alpha)
	var F mat.Dense
	if err := F.Solve(A, Y); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{Closed, Iterative} {
		r, err := Spreading{Affinity: Affinity{Kind: RBF, Gamma: gamma}, Alpha: alpha, Method: m, Tol: 1e-12, MaxIter: 10000}.Fit(ctx, X, y)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			s := F.At(i, 0) + F.At(i, 1)
			for c := 0; c < 2; c++ {
				want := F.At(i, c) / s
				if got := r.Distributions.At(i, c); !(math.Abs(got-want) <= 1e-9) {
					t.Errorf("%s: F[%d,%d] = %.12g, want %.12g", m, i, c, got, want)
				}
			}
		}
		if r.Transduction()[3] != 0 || r.Transduction()[6] != 1 {
			t.Errorf("%s: transduction %v", m, r.Transduction())
		}
	}
}

// TestPropagationClosedTinyWeights: the closed form solves L_UU·f = W_UL·Y
// with L = D − W, which does not involve W_ii. With a large RBF gamma the
// neighbour weights (~1e-20) vanish against W_ii = 1 in D_ii − W_ii, which
// gave a zero Jacobi pivot and NaN scores. On a chain the answer is the
// harmonic interpolation, computed here from the row-scaled system.
func TestPropagationClosedTinyWeights(t *testing.T) {
	ctx := context.Background()
	const n, gamma = 10, 45.0
	X := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		X.Set(i, 0, float64(i))
	}
	y := make([]int, n)
	for i := range y {
		y[i] = -1
	}
	y[0], y[n-1] = 0, 1
	w := func(i, j int) float64 { return math.Exp(-gamma * float64((i-j)*(i-j))) }
	// Unknowns 1..n-2; row i scaled by 1/d_i (d_i over j ≠ i).
	m := n - 2
	A := mat.NewDense(m, m, nil)
	b := mat.NewVecDense(m, nil)
	for r := 0; r < m; r++ {
		i := r + 1
		d := 0.0
		for j := 0; j < n; j++ {
			if j != i {
				d += w(i, j)
			}
		}
		for j := 0; j < n; j++ {
			switch {
			case j == i:
				A.Set(r, r, 1)
			case j == n-1:
				b.SetVec(r, w(i, j)/d)
			case j > 0:
				A.Set(r, j-1, -w(i, j)/d)
			}
		}
	}
	var f mat.VecDense
	if err := f.SolveVec(A, b); err != nil {
		t.Fatal(err)
	}
	r, err := Propagation{Affinity: Affinity{Kind: RBF, Gamma: gamma}, Method: Closed}.Fit(ctx, X, y)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) > 0 {
		t.Errorf("warnings: %v", r.Warnings)
	}
	for i := 1; i < n-1; i++ {
		if got, want := r.Distributions.At(i, 1), f.AtVec(i-1); !(math.Abs(got-want) <= 1e-9) {
			t.Errorf("F[%d,1] = %.12g, want %.12g", i, got, want)
		}
	}
}

// TestOverflowingAffinity: affinities whose sums overflow give NaN or zero
// scores; that must be an error, not class 0 for every point.
func TestOverflowingAffinity(t *testing.T) {
	ctx := context.Background()
	K := mat.NewSymDense(4, []float64{
		1e308, 1e308, 1, 0,
		1e308, 1e308, 1e308, 1,
		1, 1e308, 1e308, 1e308,
		0, 1, 1e308, 1e308})
	y := []int{0, -1, -1, 1}
	for _, m := range []string{Closed, Iterative} {
		if _, err := (Propagation{Method: m}).FitGram(ctx, K, y); !errors.Is(err, ErrNonFinite) {
			t.Errorf("propagation %s: err = %v, want ErrNonFinite", m, err)
		}
		if _, err := (Spreading{Method: m}).FitGram(ctx, K, y); !errors.Is(err, ErrNonFinite) {
			t.Errorf("spreading %s: err = %v, want ErrNonFinite", m, err)
		}
	}
}
