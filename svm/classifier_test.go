package svm

import (
	"bytes"
	"context"
	"errors"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

type fixOVR struct {
	Gamma, C float64
	X, Xt    [][]float64
	Y        []int
	Decision [][]float64
	Predict  []int
	Support  [][]int
}

type fixProb struct {
	Gamma, C float64
	X, Xt    [][]float64
	Y        []int
	Proba    [][]float64 `json:"proba"`
	ProbA    []float64   `json:"probA"`
	ProbB    []float64   `json:"probB"`
}

type fixtures2 struct {
	OVR  fixOVR  `json:"ovr"`
	Prob fixProb `json:"prob"`
}

func loadFixtures2(t *testing.T) *fixtures2 {
	t.Helper()
	var f fixtures2
	readJSON(t, "testdata/fixtures.json", &f)
	return &f
}

// TestOneVsRest compares with scikit-learn's OneVsRestClassifier(SVC):
// support vectors of every machine, decision values within 1e-4 and
// predictions (largest decision value, first on ties).
func TestOneVsRest(t *testing.T) {
	f := loadFixtures2(t).OVR
	X, Xt := dense(f.X), dense(f.Xt)
	m, err := Classifier{C: f.C, Kernel: kernel.RBF{Gamma: f.Gamma}, OneVsRest: true}.Fit(context.Background(), X, f.Y)
	if err != nil {
		t.Fatal(err)
	}
	for c, want := range f.Support {
		var got []int
		for _, s := range m.Machines[c].SV {
			got = append(got, m.SV[s])
		}
		slices.Sort(got)
		w := slices.Clone(want)
		slices.Sort(w)
		if !slices.Equal(got, w) {
			t.Errorf("machine %d SV rows\n got %v\nwant %v", c, got, w)
		}
	}
	dec, err := m.Decision(nil, Xt)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range f.Decision {
		for c, v := range row {
			if d := math.Abs(dec.At(i, c) - v); d > 1e-4 {
				t.Errorf("decision[%d][%d] = %.8g, want %.8g", i, c, dec.At(i, c), v)
			}
		}
	}
	pred, err := m.PredictPoints(context.Background(), nil, Xt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pred, f.Predict) {
		t.Errorf("predictions\n got %v\nwant %v", pred, f.Predict)
	}
}

// TestKKT checks the optimality conditions of every machine on the
// fixtures, recomputed in float64 from the returned coefficients:
// 0 ≤ α_i ≤ C_i, Σy_iα_i = 0 and y_i f(x_i) ≥ 1 − ε (α_i = 0), = 1 ± ε
// (0 < α_i < C_i), ≤ 1 + ε (α_i = C_i), with ε = 2·Tol plus the float32
// rounding of the kernel cache (6e-8·Σα·max|K|).
func TestKKT(t *testing.T) {
	fx := loadFixtures(t)
	ctx := context.Background()
	for i := range fx.SVC {
		f := &fx.SVC[i]
		t.Run(f.Name, func(t *testing.T) {
			m, _, _ := fitFixture(t, f)
			k := f.kernel()
			if f.Kernel == "precomputed" {
				k = kernel.RBF{Gamma: f.Gamma}
			}
			K, err := kernel.Gram(ctx, nil, k, dense(f.X))
			if err != nil {
				t.Fatal(err)
			}
			c := f.classifier()
			for _, mc := range m.Machines {
				coef := map[int]float64{}
				sumAbs, sum := 0.0, 0.0
				for q, s := range mc.SV {
					coef[m.SV[s]] = mc.Coef[q]
					sumAbs += math.Abs(mc.Coef[q])
					sum += mc.Coef[q]
				}
				if math.Abs(sum) > 1e-10*sumAbs {
					t.Errorf("machine (%d,%d): Σ y_i α_i = %g", mc.Pos, mc.Neg, sum)
				}
				eps := 2e-3 + 6e-8*sumAbs*maxAbs(K)
				for r, lab := range f.Y {
					ci := slices.Index(m.Classes(), lab)
					var y float64
					switch ci {
					case mc.Pos:
						y = 1
					case mc.Neg:
						y = -1
					default:
						continue
					}
					C := c.C
					if w, ok := c.Weights[lab]; ok {
						C *= w
					}
					fx := -mc.Rho
					for s, v := range coef {
						fx += v * K.At(s, r)
					}
					a := y * coef[r]
					yf := y * fx
					switch {
					case a < 0 || a > C*(1+1e-12):
						t.Errorf("row %d: α = %g outside [0, %g]", r, a, C)
					case a == 0 && yf < 1-eps:
						t.Errorf("row %d: α = 0 but y f = %.6g < 1", r, yf)
					case a >= C && yf > 1+eps:
						t.Errorf("row %d: α = C but y f = %.6g > 1", r, yf)
					case a > 0 && a < C && math.Abs(yf-1) > eps:
						t.Errorf("row %d: free α but y f = %.6g ≠ 1", r, yf)
					}
				}
			}
		})
	}
}

func maxAbs(K mat.Symmetric) float64 {
	n := K.SymmetricDim()
	m := 0.0
	for i := range n {
		for j := i; j < n; j++ {
			m = max(m, math.Abs(K.At(i, j)))
		}
	}
	return m
}

// TestGOMAXPROCS: point-kernel columns are computed in parallel for long
// columns and the Gram check runs in parallel; the model must not depend
// on the number of workers.
func TestGOMAXPROCS(t *testing.T) {
	ts := getTiming(2000)
	ctx := context.Background()
	k := kernel.RBF{Gamma: 1 / (10 * varAll(ts.X))}
	fit := func(procs int) (*Model, *Model, *SVDDModel) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		mp, err := Classifier{C: 1, Kernel: k}.Fit(ctx, ts.X, ts.y)
		if err != nil {
			t.Fatal(err)
		}
		mg, err := Classifier{C: 1}.FitGram(ctx, ts.K, ts.y)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := SVDD{C: 0.005}.FitGram(ctx, ts.K)
		if err != nil {
			t.Fatal(err)
		}
		return mp, mg, ms
	}
	p1, g1, s1 := fit(1)
	p2, g2, s2 := fit(2)
	same := func(a, b *Model) bool {
		if !slices.Equal(a.SV, b.SV) || len(a.Machines) != len(b.Machines) {
			return false
		}
		for i := range a.Machines {
			if a.Machines[i].Rho != b.Machines[i].Rho || !slices.Equal(a.Machines[i].Coef, b.Machines[i].Coef) {
				return false
			}
		}
		return true
	}
	if !same(p1, p2) {
		t.Error("Fit differs between GOMAXPROCS 1 and 2")
	}
	if !same(g1, g2) {
		t.Error("FitGram differs between GOMAXPROCS 1 and 2")
	}
	if !same(p1, g1) {
		t.Error("Fit and FitGram on kernel.Gram differ")
	}
	if s1.R2 != s2.R2 || !slices.Equal(s1.Beta, s2.Beta) {
		t.Error("SVDD differs between GOMAXPROCS 1 and 2")
	}
}

// TestErrors: bad input returns the documented sentinel errors.
func TestErrors(t *testing.T) {
	ctx := context.Background()
	X := mat.NewDense(4, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1})
	K, _ := kernel.Gram(ctx, nil, kernel.Linear{}, X)
	rbf := kernel.RBF{Gamma: 1}
	asym := mat.NewSymDense(3, []float64{1, 0.5, 0, 0.2, 1, 0, 0, 0, 1})
	nanK := mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1})
	ok := Classifier{C: 1}
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"one class", fitErr(ok.FitGram(ctx, K, []int{1, 1, 1, 1})), ErrOneClass},
		{"singleton", fitErr(ok.FitGram(ctx, K, []int{0, 0, 0, 1})), ErrSingletonClass},
		{"negative label", fitErr(ok.FitGram(ctx, K, []int{0, -2, 1, 1})), ErrBadLabel},
		{"C < 0", fitErr(Classifier{C: -1}.FitGram(ctx, K, []int{0, 0, 1, 1})), ErrBadParam},
		{"C NaN", fitErr(Classifier{C: math.NaN()}.FitGram(ctx, K, []int{0, 0, 1, 1})), ErrBadParam},
		{"weight 0", fitErr(Classifier{C: 1, Weights: map[int]float64{0: 0}}.FitGram(ctx, K, []int{0, 0, 1, 1})), ErrBadParam},
		{"len y", fitErr(ok.FitGram(ctx, K, []int{0, 0, 1})), ErrShape},
		{"asymmetric store", fitErr(ok.FitGram(ctx, asym, []int{0, 0, 1})), ErrNotSymmetric},
		{"NaN in K", fitErr(ok.FitGram(ctx, nanK, []int{0, 1})), ErrNonFinite},
		{"empty K", fitErr(ok.FitGram(ctx, &mat.SymDense{}, nil)), ErrEmpty},
		{"nil kernel", fitErr(ok.Fit(ctx, X, []int{0, 0, 1, 1})), ErrBadParam},
		{"NaN in X", fitErr(Classifier{C: 1, Kernel: rbf}.Fit(ctx, mat.NewDense(2, 1, []float64{0, math.NaN()}), []int{0, 1})), ErrNonFinite},
		{"SVDD C < 1/N", svddErr(SVDD{C: 0.2}.FitGram(ctx, K)), ErrBadParam},
		{"SVDD C = 0", svddErr(SVDD{}.FitGram(ctx, K)), ErrBadParam},
		{"SVDD NaN", svddErr(SVDD{C: 1}.FitGram(ctx, nanK)), ErrNonFinite},
		{"SVDD asymmetric", svddErr(SVDD{C: 1}.FitGram(ctx, asym)), ErrNotSymmetric},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.err, c.want)
		}
	}
	if _, err := (Classifier{C: 1, AllowSingleton: true}).FitGram(ctx, K, []int{0, 0, 0, 1}); err != nil {
		t.Errorf("AllowSingleton: %v", err)
	}
	m, err := ok.FitGram(ctx, K, []int{0, 0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict(ctx, nil, mat.NewDense(2, 3, nil)); !errors.Is(err, ErrShape) {
		t.Errorf("Predict 2×3: %v", err)
	}
	if _, err := m.Predict(ctx, nil, mat.NewDense(1, 4, []float64{math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)})); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Predict Inf: %v", err)
	}
	if _, err := m.PredictPoints(context.Background(), nil, X); !errors.Is(err, ErrNoKernel) {
		t.Errorf("Predict on a Gram model: %v", err)
	}
	if _, err := m.ProbabilitiesGram(nil, mat.NewDense(1, 4, nil)); !errors.Is(err, ErrNoProbability) {
		t.Errorf("Probabilities without Probability: %v", err)
	}
	mp, err := Classifier{C: 1, Kernel: rbf}.Fit(ctx, X, []int{0, 0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mp.PredictPoints(context.Background(), nil, mat.NewDense(1, 3, nil)); !errors.Is(err, ErrShape) {
		t.Errorf("Predict with 3 features: %v", err)
	}
	if _, err := mp.PredictPoints(context.Background(), nil, mat.NewDense(1, 2, []float64{0, math.NaN()})); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Predict NaN: %v", err)
	}
	// A lower triangle that is all zero (upper-only storage) is accepted.
	up := mat.NewSymDense(3, []float64{2, 1, 0, 0, 2, 1, 0, 0, 2})
	if _, err := ok.FitGram(ctx, up, []int{0, 0, 1}); err != nil && !errors.Is(err, ErrSingletonClass) {
		t.Errorf("upper-only store: %v", err)
	}
}

func fitErr(_ *Model, err error) error      { return err }
func svddErr(_ *SVDDModel, err error) error { return err }

// TestSaveLoad: a saved and loaded model predicts bit-identically, and
// corrupted files are ErrFormat.
func TestSaveLoad(t *testing.T) {
	fx := loadFixtures(t)
	for _, name := range []string{"iris-rbf-C1", "iris-precomputed-C10", "binary-linear-C1"} {
		var f *fixSVC
		for i := range fx.SVC {
			if fx.SVC[i].Name == name {
				f = &fx.SVC[i]
			}
		}
		m, dec, _ := fitFixture(t, f)
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		m2, err := Load(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var dec2 *mat.Dense
		if f.Kernel == "precomputed" {
			Kt, _ := kernel.Cross(context.Background(), nil, kernel.RBF{Gamma: f.Gamma}, dense(f.Xt), dense(f.X))
			dec2, err = m2.DecisionGram(nil, Kt)
		} else {
			dec2, err = m2.Decision(nil, dense(f.Xt))
		}
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(dec, dec2) {
			t.Errorf("%s: decision values differ after Save/Load", name)
		}
		for _, bad := range []string{
			strings.Replace(text, `"version": 1`, `"version": 2`, 1),
			strings.Replace(text, `"format": "arbor-svm"`, `"format": "x"`, 1),
			strings.Replace(text, `"n_train": `, `"n_train": -`, 1),
			text[:len(text)/2],
		} {
			if _, err := Load(strings.NewReader(bad)); !errors.Is(err, ErrFormat) {
				t.Errorf("%s: corrupted file: %v", name, err)
			}
		}
	}
	// Kernels from other packages cannot be described.
	m, err := Classifier{C: 1, Kernel: testKernel{}}.Fit(context.Background(), mat.NewDense(4, 1, []float64{0, 1, 2, 3}), []int{0, 0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Save(&bytes.Buffer{}); !errors.Is(err, ErrFormat) {
		t.Errorf("Save with a foreign kernel: %v", err)
	}
}

type testKernel struct{}

func (testKernel) Eval(x, y []float64) float64 { return x[0] * y[0] }

// TestProbability: Platt's sigmoid fit and pairwise coupling against their
// exact optima (fixtures: scipy BFGS and the KKT linear system; tolerances
// from LIBSVM's stopping rules, |∇| < 1e-5 and max error < 0.005/k), and
// probability outputs on iris against scikit-learn within 0.1 (the
// cross-validation folds are random in both), rows summing to 1, and
// determinism for a fixed Seed.
func TestProbability(t *testing.T) {
	fx := loadFixtures(t)
	A, B := sigmoidTrain(fx.Platt.Dec, fx.Platt.Labels)
	if math.Abs(A-fx.Platt.A) > 1e-4 || math.Abs(B-fx.Platt.B) > 1e-4 {
		t.Errorf("sigmoid A, B = %.6g, %.6g; want %.6g, %.6g", A, B, fx.Platt.A, fx.Platt.B)
	}
	p := make([]float64, len(fx.Coupling.P))
	coupling(fx.Coupling.R, p)
	for i := range p {
		if math.Abs(p[i]-fx.Coupling.P[i]) > 2e-3 {
			t.Errorf("coupling p = %v, want %v", p, fx.Coupling.P)
			break
		}
	}

	f := loadFixtures2(t).Prob
	X, Xt := dense(f.X), dense(f.Xt)
	c := Classifier{C: f.C, Kernel: kernel.RBF{Gamma: f.Gamma}, Probability: true, Seed: 1}
	m, err := c.Fit(context.Background(), X, f.Y)
	if err != nil {
		t.Fatal(err)
	}
	P, err := m.Probabilities(nil, Xt)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range f.Proba {
		s := 0.0
		for j, w := range want {
			v := P.At(i, j)
			s += v
			if v < 0 || v > 1 || math.Abs(v-w) > 0.1 {
				t.Errorf("P[%d][%d] = %.4f, scikit-learn %.4f", i, j, v, w)
			}
		}
		if math.Abs(s-1) > 1e-9 {
			t.Errorf("row %d sums to %v", i, s)
		}
	}
	m2, _ := c.Fit(context.Background(), X, f.Y)
	for q := range m.Machines {
		if m.Machines[q].ProbA != m2.Machines[q].ProbA || m.Machines[q].ProbB != m2.Machines[q].ProbB {
			t.Error("Platt parameters differ between two fits with the same Seed")
		}
		if !(m.Machines[q].ProbA < 0) {
			t.Errorf("machine %d: ProbA = %v, want < 0 (P increases with f)", q, m.Machines[q].ProbA)
		}
	}
	// Probability does not change the machines themselves.
	plain, _ := Classifier{C: f.C, Kernel: kernel.RBF{Gamma: f.Gamma}}.Fit(context.Background(), X, f.Y)
	if !slices.Equal(plain.SV, m.SV) || plain.Machines[0].Rho != m.Machines[0].Rho {
		t.Error("Probability changed the fitted machines")
	}
}

// TestGramStore runs the input check on a matrix large enough for the
// concurrent (speculative) path: one NaN, one asymmetric entry, and an
// upper-only store (lower triangle zero), which must give the same model
// as the mirrored store.
func TestGramStore(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	ctx := context.Background()
	ts := getTiming(600)
	n := 600
	full := ts.K.RawSymmetric().Data
	clone := func() *mat.SymDense { return mat.NewSymDense(n, slices.Clone(full)) }
	ref, err := Classifier{C: 1}.FitGram(ctx, ts.K, ts.y)
	if err != nil {
		t.Fatal(err)
	}
	nan := clone()
	nan.SetSym(400, 17, math.NaN())
	if _, err := (Classifier{C: 1}).FitGram(ctx, nan, ts.y); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN: %v", err)
	}
	if _, err := (SVDD{C: 0.01}).FitGram(ctx, nan); !errors.Is(err, ErrNonFinite) {
		t.Errorf("SVDD NaN: %v", err)
	}
	asym := clone()
	asym.RawSymmetric().Data[400*n+17] += 1e-6 // lower triangle only
	_, err = Classifier{C: 1}.FitGram(ctx, asym, ts.y)
	if !errors.Is(err, ErrNotSymmetric) || !strings.Contains(err.Error(), "K[400][17]") {
		t.Errorf("asymmetric: %v", err)
	}
	up := clone()
	d := up.RawSymmetric().Data
	for i := range n {
		for j := range i {
			d[i*n+j] = 0
		}
	}
	m, err := Classifier{C: 1}.FitGram(ctx, up, ts.y)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.SV, ref.SV) || m.Machines[0].Rho != ref.Machines[0].Rho || !slices.Equal(m.Machines[0].Coef, ref.Machines[0].Coef) {
		t.Error("upper-only store gives a different model")
	}
}

// TestFitGramRows: training on K[rows][rows] in place equals FitGram on the
// copied sub-matrix, and bad row lists are ErrShape.
func TestFitGramRows(t *testing.T) {
	ctx := context.Background()
	ts := getTiming(600)
	var rows, y []int
	for i := 0; i < 600; i += 3 {
		rows = append(rows, (i*7)%600)
	}
	sub := mat.NewSymDense(len(rows), nil)
	for a, ra := range rows {
		y = append(y, ts.y[ra])
		for b, rb := range rows {
			sub.SetSym(a, b, ts.K.At(ra, rb))
		}
	}
	want, err := Classifier{C: 10}.FitGram(ctx, sub, y)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Classifier{C: 10}.FitGramRows(ctx, ts.K, rows, y)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.SV, want.SV) || got.Machines[0].Rho != want.Machines[0].Rho || !slices.Equal(got.Machines[0].Coef, want.Machines[0].Coef) {
		t.Error("FitGramRows differs from FitGram on the copied block")
	}
	for _, bad := range [][]int{{0, 600}, {0, -1}, {3, 3}} {
		if _, err := (Classifier{C: 1}).FitGramRows(ctx, ts.K, bad, []int{0, 1}); !errors.Is(err, ErrShape) {
			t.Errorf("rows %v: %v", bad, err)
		}
	}
}

// TestLimits: MaxIter is reported (not an error), a cancelled context
// stops training, Progress is called once per machine, and one-vs-rest
// probabilities are normalised.
func TestLimits(t *testing.T) {
	ts := getTiming(600)
	ctx := context.Background()
	m, err := Classifier{C: 100, MaxIter: 5}.FitGram(ctx, ts.K, ts.y)
	if err != nil {
		t.Fatal(err)
	}
	if m.Converged || m.Iter != 5 || len(m.Warnings) != 1 || !errors.Is(m.Warnings[0], ErrNotConverged) {
		t.Errorf("MaxIter 5: Converged %v, Iter %d, Warnings %v", m.Converged, m.Iter, m.Warnings)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := (Classifier{C: 1}).FitGram(cctx, ts.K, ts.y); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := (SVDD{C: 0.1}).FitGram(cctx, ts.K); !errors.Is(err, context.Canceled) {
		t.Errorf("SVDD cancelled: %v", err)
	}
	var calls []int
	y3 := make([]int, len(ts.y))
	for i := range y3 {
		y3[i] = i % 3
	}
	c := Classifier{C: 1, Progress: func(stage string, done, total int) {
		if stage != "svm" || total != 3 {
			t.Errorf("Progress(%q, %d, %d)", stage, done, total)
		}
		calls = append(calls, done)
	}}
	if _, err := c.FitGram(ctx, ts.K, y3); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(calls, []int{1, 2, 3}) {
		t.Errorf("Progress calls %v", calls)
	}
	mo, err := Classifier{C: 1, OneVsRest: true, Probability: true}.FitGram(ctx, ts.K, y3)
	if err != nil {
		t.Fatal(err)
	}
	P, err := mo.ProbabilitiesGram(nil, mat.NewDense(2, 600, ts.K.RawSymmetric().Data[:1200]))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if s := mat.Sum(P.RowView(i)); math.Abs(s-1) > 1e-12 {
			t.Errorf("OvR probabilities sum to %v", s)
		}
	}
}

// TestIndefinite: on a symmetric matrix that is not PSD (LIBSVM's TAU
// branch for a_ij ≤ 0), training still terminates with a feasible α
// (0 ≤ α_i ≤ C, Σ y_i α_i = 0), and SVDD keeps Σβ = 1, 0 ≤ β ≤ C.
func TestIndefinite(t *testing.T) {
	ctx := context.Background()
	const n = 60
	K := mat.NewSymDense(n, nil)
	x := uint64(12345)
	rnd := func() float64 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return float64(x>>11)/float64(1<<53)*2 - 1
	}
	y := make([]int, n)
	for i := range n {
		y[i] = i % 3
		for j := i; j < n; j++ {
			K.SetSym(i, j, rnd())
		}
	}
	m, err := Classifier{C: 2, MaxIter: 100000}.FitGram(ctx, K, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, mc := range m.Machines {
		sum := 0.0
		for _, c := range mc.Coef {
			sum += c
			if math.Abs(c) > 2*(1+1e-12) {
				t.Errorf("|coef| = %v > C", math.Abs(c))
			}
		}
		if math.Abs(sum) > 1e-9 {
			t.Errorf("machine (%d,%d): Σ y α = %v", mc.Pos, mc.Neg, sum)
		}
	}
	s, err := SVDD{C: 0.1, MaxIter: 100000}.FitGram(ctx, K)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, b := range s.Beta {
		sum += b
		if b < 0 || b > 0.1*(1+1e-12) {
			t.Errorf("β = %v outside [0, C]", b)
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("Σβ = %v", sum)
	}
}

// TestZeroCIsDefault: the zero value of C means LIBSVM's default C = 1, as
// documented: Classifier{} fits the same model as Classifier{C: 1}.
func TestZeroCIsDefault(t *testing.T) {
	ctx := context.Background()
	X := mat.NewDense(6, 2, []float64{0, 0, 0.3, 0.1, 0.1, 0.4, 2, 2, 2.2, 1.8, 1.2, 1.1})
	y := []int{0, 0, 0, 1, 1, 1}
	a, err := Classifier{Kernel: kernel.RBF{Gamma: 0.5}}.Fit(ctx, X, y)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Classifier{C: 1, Kernel: kernel.RBF{Gamma: 0.5}}.Fit(ctx, X, y)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("Classifier{} fits\n%+v\nClassifier{C: 1} fits\n%+v", a, b)
	}
	c, err := Classifier{C: 0.01, Kernel: kernel.RBF{Gamma: 0.5}}.Fit(ctx, X, y)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a, c) {
		t.Error("C = 0.01 fits the same model as C = 0: the check cannot fail")
	}
}
