package knn

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"runtime"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

type kcase struct {
	K      int         `json:"k"`
	Peer   []int       `json:"peer"`
	SkU    []int       `json:"sk_uniform"`
	SkUP   [][]float64 `json:"sk_uniform_proba"`
	SkUOk  []bool      `json:"sk_uniform_ok"`
	SkD    []int       `json:"sk_distance"`
	SkDP   [][]float64 `json:"sk_distance_proba"`
	SkDOk  []bool      `json:"sk_distance_ok"`
	Sim    []int       `json:"sim"`
	Scores [][]float64 `json:"scores"`
}

type fixture struct {
	Data []struct {
		Name string      `json:"name"`
		X    [][]float64 `json:"X"`
		Y    []int       `json:"y"`
	} `json:"data"`
	Cases []struct {
		Name    string      `json:"name"`
		Kernel  string      `json:"kernel"`
		Gamma   float64     `json:"gamma"`
		Labeled []int       `json:"labeled"`
		K       [][]float64 `json:"K"`
		Ks      []kcase     `json:"ks"`
	} `json:"cases"`
	Multilabel struct {
		Sets    [][]int `json:"sets"`
		Labeled []int   `json:"labeled"`
		Ks      []kcase `json:"ks"`
	} `json:"multilabel"`
}

func loadFixture(t testing.TB) *fixture {
	t.Helper()
	f, err := os.Open("testdata/knn.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var fx fixture
	if err := json.NewDecoder(z).Decode(&fx); err != nil {
		t.Fatal(err)
	}
	return &fx
}

func dense(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// semi returns y with only the labelled rows kept, and the unlabelled rows.
func semi(y, labeled []int) ([]int, []int) {
	out := make([]int, len(y))
	for i := range out {
		out[i] = dataset.Unlabeled
	}
	for _, i := range labeled {
		out[i] = y[i]
	}
	var u []int
	for i, v := range out {
		if v == dataset.Unlabeled {
			u = append(u, i)
		}
	}
	return out, u
}

func gramFor(t testing.TB, fx *fixture, ci int) (*mat.SymDense, []int) {
	c := fx.Cases[ci]
	for _, d := range fx.Data {
		if d.Name != c.Name {
			continue
		}
		X := dense(d.X)
		var k kernel.Kernel
		switch c.Kernel {
		case "linear":
			k = kernel.Linear{}
		case "rbf":
			k = kernel.RBF{Gamma: c.Gamma}
		default:
			n := len(c.K)
			K := mat.NewSymDense(n, nil)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					K.SetSym(i, j, c.K[i][j])
				}
			}
			return K, d.Y
		}
		K, err := kernel.Gram(context.Background(), nil, k, X)
		if err != nil {
			t.Fatal(err)
		}
		return K, d.Y
	}
	t.Fatalf("no data %q", c.Name)
	return nil, nil
}

// TestAgainstPeerAndSklearn checks uniform kNN equals peers.kernel_knn on every
// unlabelled row, and uniform/distance kNN equal scikit-learn's
// KNeighborsClassifier(metric="precomputed") — labels and predict_proba —
// on the rows where scikit-learn's answer is determined (no distance tie at
// the k-th place, no tied vote); the fixture also shows the peer convention
// and scikit-learn agree on all those rows.
func TestAgainstPeerAndSklearn(t *testing.T) {
	fx := loadFixture(t)
	ctx := context.Background()
	for ci, c := range fx.Cases {
		K, y := gramFor(t, fx, ci)
		ys, U := semi(y, c.Labeled)
		for _, kc := range c.Ks {
			for _, w := range []string{Uniform, Distance, Similarity} {
				if w == Similarity && kc.Sim == nil {
					continue
				}
				m, err := Classifier{K: kc.K, Weights: w}.FitGram(ctx, K, ys)
				if err != nil {
					t.Fatal(err)
				}
				pred, err := m.PredictRows(ctx, nil, U)
				if err != nil {
					t.Fatal(err)
				}
				S, err := m.Scores(ctx, nil, GramRows(U))
				if err != nil {
					t.Fatal(err)
				}
				var want []int
				var proba [][]float64
				var ok []bool
				switch w {
				case Uniform:
					if !slices.Equal(pred, kc.Peer) {
						t.Errorf("%s/%s k=%d: differs from peers.kernel_knn", c.Name, c.Kernel, kc.K)
					}
					want, proba, ok = kc.SkU, kc.SkUP, kc.SkUOk
				case Distance:
					want, proba, ok = kc.SkD, kc.SkDP, kc.SkDOk
				case Similarity:
					if !slices.Equal(pred, kc.Sim) {
						t.Errorf("%s/%s k=%d similarity: differs from the numpy reference", c.Name, c.Kernel, kc.K)
					}
					continue
				}
				nok, bad := 0, 0
				for r := range U {
					if !ok[r] {
						continue
					}
					nok++
					if pred[r] != want[r] {
						bad++
					}
					for cl := range proba[r] {
						// 1e-9: distances come from Go's Gram vs numpy's.
						if math.Abs(S.At(r, cl)-proba[r][cl]) > 1e-9 {
							t.Errorf("%s/%s k=%d %s row %d: score %v, sklearn proba %v", c.Name, c.Kernel, kc.K, w, U[r], S.RawRowView(r), proba[r])
							break
						}
					}
				}
				if bad > 0 || nok < len(U)/4 {
					t.Errorf("%s/%s k=%d %s: %d of %d determined rows differ from sklearn", c.Name, c.Kernel, kc.K, w, bad, nok)
				}
			}
		}
	}
}

func TestMultiLabelScores(t *testing.T) {
	fx := loadFixture(t)
	ctx := context.Background()
	ml := fx.Multilabel
	var X *mat.Dense
	for _, d := range fx.Data {
		if d.Name == "random3" {
			X = dense(d.X)
		}
	}
	sets := make([][]int, len(ml.Sets))
	isLab := map[int]bool{}
	for _, i := range ml.Labeled {
		isLab[i] = true
		sets[i] = ml.Sets[i]
	}
	var U []int
	for i := range sets {
		if !isLab[i] {
			U = append(U, i)
		}
	}
	for _, kc := range ml.Ks {
		for _, fit := range []string{"points", "gram"} {
			c := Classifier{K: kc.K, Soft: true, Threshold: 0.5}
			var m *Model
			var q Query
			var err error
			if fit == "points" {
				m, err = c.FitSets(ctx, X, sets)
				Xu := mat.NewDense(len(U), 3, nil)
				for r, i := range U {
					Xu.SetRow(r, X.RawRowView(i))
				}
				q = Points(Xu)
			} else {
				K, _ := kernel.Gram(ctx, nil, kernel.Linear{}, X)
				m, err = c.FitGramSets(ctx, K, sets)
				q = GramRows(U)
			}
			if err != nil {
				t.Fatal(err)
			}
			S, err := m.Scores(ctx, nil, q)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.EqualApprox(S, dense(kc.Scores), 1e-12) {
				t.Errorf("k=%d %s: multi-label scores differ", kc.K, fit)
			}
			got, err := m.PredictSets(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for r := range U {
				var want []int
				for cl, v := range kc.Scores[r] {
					if v >= 0.5-1e-12 {
						want = append(want, cl)
					}
				}
				if !slices.Equal(got[r], want) {
					t.Errorf("k=%d %s row %d: sets %v want %v", kc.K, fit, U[r], got[r], want)
				}
			}
			top, _ := Classifier{K: kc.K, TopR: 1}.FitGramSets(ctx, mustGram(t, X), sets)
			ts, err := top.PredictSets(ctx, GramRows(U))
			if err != nil {
				t.Fatal(err)
			}
			for r := range U {
				if len(ts[r]) != 1 || kc.Scores[r][ts[r][0]] != slices.Max(kc.Scores[r]) {
					t.Errorf("top-1 row %d: %v for scores %v", U[r], ts[r], kc.Scores[r])
				}
			}
		}
	}
}

func mustGram(t testing.TB, X *mat.Dense) *mat.SymDense {
	K, err := kernel.Gram(context.Background(), nil, kernel.Linear{}, X)
	if err != nil {
		t.Fatal(err)
	}
	return K
}

// TestPointsEqualGram: Fit/Predict on points with a kernel equals FitGram on
// the Gram matrix over the same points, and the Cross query equals both.
func TestPointsEqualGram(t *testing.T) {
	fx := loadFixture(t)
	ctx := context.Background()
	d := fx.Data[0]
	X := dense(d.X)
	lab := fx.Cases[0].Labeled
	ys, U := semi(d.Y, lab)
	kern := kernel.RBF{Gamma: 0.5}
	K, _ := kernel.Gram(ctx, nil, kern, X)
	c := Classifier{K: 3, Weights: Distance, Kernel: kern}
	mg, err := c.FitGram(ctx, K, ys)
	if err != nil {
		t.Fatal(err)
	}
	mp, err := c.Fit(ctx, X, ys)
	if err != nil {
		t.Fatal(err)
	}
	Xu := mat.NewDense(len(U), 2, nil)
	for r, i := range U {
		Xu.SetRow(r, X.RawRowView(i))
	}
	a, err := mg.PredictRows(ctx, nil, U)
	if err != nil {
		t.Fatal(err)
	}
	b, err := mp.PredictPoints(ctx, nil, Xu)
	if err != nil {
		t.Fatal(err)
	}
	Kt, _ := kernel.Cross(ctx, nil, kern, Xu, X)
	diag := make([]float64, len(U))
	for i := range diag {
		diag[i] = 1
	}
	cr, err := mg.PredictDiag(ctx, nil, Kt, diag)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) || !slices.Equal(a, cr) {
		t.Error("Gram, point and cross predictions differ")
	}
	nb, err := mg.Neighbors(ctx, GramRows(lab[:2]))
	if err != nil {
		t.Fatal(err)
	}
	if nb[0][0] != lab[0] || nb[1][0] != lab[1] {
		t.Errorf("a labelled row is not its own nearest neighbour: %v", nb)
	}
}

// TestTies: equal distances rank by lower labelled row, a tied vote goes to
// the class of the first-ranked of the tied classes.
func TestTies(t *testing.T) {
	ctx := context.Background()
	// 1-D points: query 0 at x=0; labelled at -1 (class 1, row 1), +1 (class 0,
	// row 2), -2 (class 0, row 3), +2 (class 1, row 4).
	X := mat.NewDense(5, 1, []float64{0, -1, 1, -2, 2})
	y := []int{dataset.Unlabeled, 1, 0, 0, 1}
	for k, want := range map[int]int{1: 1, 2: 1, 3: 0} {
		m, err := Classifier{K: k}.Fit(ctx, X, y)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := m.PredictPoints(ctx, nil, mat.NewDense(1, 1, []float64{0}))
		if p[0] != want {
			t.Errorf("k=%d: %d want %d", k, p[0], want)
		}
	}
	// near-equal distances (1e-12 relative) are ties: row 2 (class 0) listed
	// before row 1 now, so class 0 ranks first.
	X = mat.NewDense(3, 1, []float64{0, -1 - 1e-13, 1})
	y = []int{dataset.Unlabeled, 1, 0}
	m, _ := Classifier{K: 1}.Fit(ctx, X, []int{dataset.Unlabeled, 1, 0})
	p, _ := m.PredictPoints(ctx, nil, mat.NewDense(1, 1, []float64{0}))
	nb, _ := m.Neighbors(ctx, Points(mat.NewDense(1, 1, []float64{0})))
	if p[0] != 1 || nb[0][0] != 1 {
		t.Errorf("near tie: predicted %d neighbours %v, want class 1 from row 1", p[0], nb)
	}
	_ = y
}

func TestGOMAXPROCS(t *testing.T) {
	fx := loadFixture(t)
	ctx := context.Background()
	K, y := gramFor(t, fx, 1)
	ys, U := semi(y, fx.Cases[1].Labeled)
	run := func(p int) ([]int, *mat.Dense) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(p))
		m, err := Classifier{K: 4, Weights: Distance}.FitGram(ctx, K, ys)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := m.PredictRows(ctx, nil, U)
		s, _ := m.Scores(ctx, nil, GramRows(U))
		return a, s
	}
	a1, s1 := run(1)
	a2, s2 := run(2)
	if !slices.Equal(a1, a2) || !mat.Equal(s1, s2) {
		t.Error("results depend on GOMAXPROCS")
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	X := mat.NewDense(6, 1, []float64{0, 1, 2, 3, 4, 5})
	K := mustGram(t, X)
	u := dataset.Unlabeled
	y := []int{0, 1, 0, 1, u, u}
	cases := []struct {
		name string
		c    Classifier
		K    mat.Symmetric
		y    []int
		want error
	}{
		{"k=0", Classifier{K: 0}, K, y, ErrK},
		{"k>labelled", Classifier{K: 5}, K, y, ErrK},
		{"k=labelled", Classifier{K: 4}, K, y, ErrK},
		{"weights", Classifier{K: 1, Weights: "gaussian"}, K, y, ErrWeights},
		{"threshold", Classifier{K: 1, Threshold: 2}, K, y, ErrBadParam},
		{"topr", Classifier{K: 1, TopR: -1}, K, y, ErrBadParam},
		{"bad kernel", Classifier{K: 1, Kernel: kernel.RBF{Gamma: -1}}, K, y, ErrBadParam},
		{"no labels", Classifier{K: 1}, K, []int{u, u, u, u, u, u}, ErrNoLabels},
		{"one class", Classifier{K: 1}, K, []int{0, 0, 0, u, u, u}, ErrOneClass},
		{"label", Classifier{K: 1}, K, []int{0, 1, -3, u, u, u}, ErrBadLabel},
		{"shape", Classifier{K: 1}, K, []int{0, 1}, ErrShape},
		{"nil K", Classifier{K: 1}, nil, y, ErrShape},
	}
	for _, c := range cases {
		var err error
		if c.K == nil {
			_, err = c.c.FitGram(ctx, nil, c.y)
		} else {
			_, err = c.c.FitGram(ctx, c.K, c.y)
		}
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	// NaN in K, found where it is used: by the transduction of row 4
	Kn := mat.NewSymDense(6, nil)
	Kn.CopySym(K)
	Kn.SetSym(4, 1, math.NaN())
	if _, err := (Classifier{K: 1}).FitGram(ctx, Kn, y); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN: %v", err)
	}
	Kn.SetSym(0, 0, math.Inf(1))
	if _, err := (Classifier{K: 1}).FitGram(ctx, Kn, y); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Inf diagonal: %v", err)
	}
	m, _ := Classifier{K: 1}.FitGram(ctx, K, y)
	if _, err := m.PredictRows(ctx, nil, []int{6}); !errors.Is(err, ErrRow) {
		t.Errorf("row: %v", err)
	}
	if _, err := m.PredictRows(ctx, make([]int, 3), []int{4}); !errors.Is(err, ErrShape) {
		t.Errorf("dst: %v", err)
	}
	if _, err := m.PredictPoints(ctx, nil, X); !errors.Is(err, ErrShape) {
		t.Errorf("points on gram model: %v", err)
	}
	if _, err := m.PredictDiag(ctx, nil, mat.NewDense(1, 5, nil), []float64{1}); !errors.Is(err, ErrShape) {
		t.Errorf("cross shape: %v", err)
	}
	if _, err := (Classifier{K: 1}).Fit(ctx, mat.NewDense(2, 1, []float64{math.NaN(), 1}), []int{0, 1}); !errors.Is(err, ErrNonFinite) {
		// K=1 with 2 labelled points is allowed; NaN must be caught
		t.Errorf("NaN X: %v", err)
	}
	mp, _ := Classifier{K: 1}.Fit(ctx, X, y)
	if _, err := mp.PredictPoints(ctx, nil, mat.NewDense(1, 2, nil)); !errors.Is(err, ErrShape) {
		t.Errorf("feature count: %v", err)
	}
	if _, err := mp.PredictPoints(ctx, nil, mat.NewDense(1, 1, []float64{math.Inf(-1)})); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Inf query: %v", err)
	}
	// similarity weights with a negative kernel value
	// (rows 4 and 5 are unlabelled: found by the transduction)
	if _, err := (Classifier{K: 2, Weights: Similarity}).FitGram(ctx, mustGram(t, mat.NewDense(6, 1, []float64{1, 2, 3, 4, -0.5, -1})), y); !errors.Is(err, ErrNegativeSim) {
		t.Errorf("negative similarity: %v", err)
	}
	// multi-label misuse
	mm, err := Classifier{K: 1}.FitGramSets(ctx, K, [][]int{{0, 1}, {1}, nil, nil, nil, nil})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mm.PredictRows(ctx, nil, []int{3}); !errors.Is(err, ErrMultiLabel) {
		t.Errorf("multi-label PredictGram: %v", err)
	}
	if _, err := (Classifier{K: 1}).FitGramSets(ctx, K, [][]int{{0, 0}, {1}, nil, nil, nil, nil}); !errors.Is(err, ErrBadLabel) {
		t.Errorf("duplicate label: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := m.PredictRows(cctx, nil, []int{4, 5}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
