package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/svm"
)

// landmarkProbaCase is one case of testdata/landmark_proba.json
// (testdata/gen_landmark_proba.py).
type landmarkProbaCase struct {
	Name string
	C    float64
	Z    [][]float64
	Y    []int
	SVM  struct {
		Label    []int
		ProbA    []float64   `json:"probA"`
		ProbB    []float64   `json:"probB"`
		Proba    [][]float64 `json:"proba"`
		Decision [][]float64
	}
	KNN map[string][][]float64
}

func readLandmarkProba(t *testing.T) []landmarkProbaCase {
	t.Helper()
	b, err := os.ReadFile("testdata/landmark_proba.json")
	if err != nil {
		t.Fatal(err)
	}
	var fix struct {
		Generator string
		Cases     []landmarkProbaCase
	}
	if err := json.Unmarshal(b, &fix); err != nil {
		t.Fatal(err)
	}
	if len(fix.Cases) == 0 {
		t.Fatal("no cases")
	}
	return fix.Cases
}

func denseRows(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// TestLandmarkSVMProbaLIBSVM: the SVM arbor classify --landmarks fits on
// the landmark features, with the Platt sigmoids of svm-train -b 1 (the
// folds drawn as svm-train draws them, --platt-folds libsvm), gives every
// row LIBSVM's probabilities (svm_predict_probability) and decision values
// (svm_predict_values) on the same feature matrix, the model held at full
// precision (svm_train in the generating process: a model file keeps its
// support vectors to 8 digits, which moves decision values by 1e-8).
// Tolerance 1e-12: both programs read the same features and reach the
// same solution; the linear kernel's dot products are summed in another
// order (last-bit differences).
func TestLandmarkSVMProbaLIBSVM(t *testing.T) {
	ctx := context.Background()
	for _, f := range readLandmarkProba(t) {
		t.Run(f.Name, func(t *testing.T) {
			Z := denseRows(f.Z)
			m, err := pipeline.LandmarkSVMWith(ctx, Z, f.Y, svm.Classifier{C: f.C, Probability: true, Shuffle: svm.ShuffleLIBSVM})
			if err != nil {
				t.Fatal(err)
			}
			P, err := m.Probabilities(nil, Z)
			if err != nil {
				t.Fatal(err)
			}
			D, err := m.Decision(nil, Z)
			if err != nil {
				t.Fatal(err)
			}
			cols := m.DecisionColumns()
			worstP, worstD := 0.0, 0.0
			for r := range f.Z {
				for i, c := range f.SVM.Label {
					worstP = max(worstP, math.Abs(P.At(r, c)-f.SVM.Proba[r][i]))
				}
				q := 0
				for i := range f.SVM.Label {
					for j := i + 1; j < len(f.SVM.Label); j++ {
						a, b := f.SVM.Label[i], f.SVM.Label[j]
						col, sign := -1, 1.0
						for p, pc := range cols {
							if pc.Pos == min(a, b) && pc.Neg == max(a, b) {
								col = p
							}
						}
						if a > b {
							sign = -1
						}
						if col < 0 {
							t.Fatalf("no decision column for classes %d, %d", a, b)
						}
						worstD = max(worstD, math.Abs(sign*D.At(r, col)-f.SVM.Decision[r][q]))
						q++
					}
				}
			}
			t.Logf("max |ΔP| = %.3g, max |Δf| = %.3g", worstP, worstD)
			if worstP > 1e-12 || worstD > 1e-12 {
				t.Errorf("max |ΔP| = %.3g, max |Δf| = %.3g against LIBSVM, want ≤ 1e-12", worstP, worstD)
			}
		})
	}
}

// TestLandmarkKNNProbaSklearn: kNN on the landmark features (LandmarkKNN)
// gives every row scikit-learn's KNeighborsClassifier.predict_proba on the
// same features (vote shares: exact fractions, to 1e-12).
func TestLandmarkKNNProbaSklearn(t *testing.T) {
	ctx := context.Background()
	for _, f := range readLandmarkProba(t) {
		Z := denseRows(f.Z)
		for ks, want := range f.KNN {
			var k int
			if err := json.Unmarshal([]byte(ks), &k); err != nil {
				t.Fatal(err)
			}
			m, err := pipeline.LandmarkKNN(ctx, Z, f.Y, k, kernel.Spec{Kind: kernel.KindPoint, Point: kernel.RBF{Gamma: 1}})
			if err != nil {
				t.Fatal(err)
			}
			P, err := m.Probabilities(ctx, nil, knn.Points(Z))
			if err != nil {
				t.Fatal(err)
			}
			for r := range want {
				for c, v := range want[r] {
					if math.Abs(P.At(r, c)-v) > 1e-12 {
						t.Errorf("%s k=%d row %d class %d: %v, scikit-learn %v", f.Name, k, r, c, P.At(r, c), v)
					}
				}
			}
		}
	}
}

// TestLandmarkProbaRoundTrip: with Settings.Proba / Decision a landmark
// fit returns a probability row per training and test row over the data's
// classes (each summing to 1, or all 0 where no label reaches a row) and
// the decision values; the SVM's and kNN's are the learner's own on the
// landmark features of the rows (the same features refitted here, 1e-12:
// the test rows go through the composed model, whose sums are taken in
// another order); kNN, the anchor graph and the kNN graph label each
// unlabelled and test row with a most probable class; the saved pipeline,
// loaded, gives the test rows the same numbers (1e-12). What a model
// cannot give is ErrOutput.
func TestLandmarkProbaRoundTrip(t *testing.T) {
	ctx := context.Background()
	ds, newX := probaData(t)
	n, y := ds.Len(), ds.Y
	const M = 40
	spec, err := kernel.ParseSpec("rbf:0.5")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		learner         string
		params          map[string]string
		proba, decision bool
	}{
		{"svm", nil, true, true},
		{"knn", map[string]string{"k": "5"}, true, false},
		{"linsvm", nil, false, true},
		{"lp", nil, true, false},
		{"spreading", nil, true, false},
		{"spreading", map[string]string{"affinity": "knn:7"}, true, false},
	} {
		name := c.learner + fmt.Sprint(c.params)
		s := pipeline.Settings{Kernel: "rbf:0.5", Scale: "none", Learner: c.learner, Params: c.params, Landmarks: M,
			Proba: c.proba, Decision: c.decision}
		if c.learner == "lp" || c.learner == "spreading" {
			s.Kernel = ""
		}
		res, err := pipeline.Fit(ctx, s, ds, newX)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The labels are those of the fit without the outputs.
		s0 := s
		s0.Proba, s0.Decision = false, false
		res0, err := pipeline.Fit(ctx, s0, ds, newX)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(res.Labels, res0.Labels) {
			t.Errorf("%s: the labels change with the outputs", name)
		}
		rows := n + 30
		if c.proba {
			if r, k := res.Proba.Dims(); r != rows || k != 3 {
				t.Fatalf("%s: Proba is %d×%d, want %d×3", name, r, k, rows)
			}
			for i := range rows {
				sum, best := 0.0, 0
				for k := range 3 {
					v := res.Proba.At(i, k)
					if v < 0 || v > 1 {
						t.Errorf("%s: row %d: P = %v", name, i, v)
					}
					sum += v
					if v > res.Proba.At(i, best) {
						best = k
					}
				}
				if math.Abs(sum-1) > 1e-12 && !(sum == 0 && res.Labels[i] == learner.Unlabeled) {
					t.Errorf("%s: row %d sums to %v", name, i, sum)
				}
				if c.learner != "svm" && (i >= n || y[i] == learner.Unlabeled) && res.Proba.At(i, res.Labels[i]) != res.Proba.At(i, best) {
					t.Errorf("%s: row %d labelled %d with P %v", name, i, res.Labels[i], mat.Row(nil, i, res.Proba))
				}
			}
		} else if res.Proba != nil {
			t.Errorf("%s: probabilities not asked for", name)
		}
		if c.decision {
			if r, k := res.Decision.Dims(); r != rows || k != 3 || len(res.DecisionColumns) != 3 {
				t.Fatalf("%s: Decision is %d×%d (%d columns named)", name, r, k, len(res.DecisionColumns))
			}
		} else if res.Decision != nil {
			t.Errorf("%s: decision values not asked for", name)
		}
		// The learner's own outputs on the features of the rows.
		if c.learner == "svm" || c.learner == "knn" {
			lmc := pipeline.LandmarkChoice{M: M, Method: "kmeans"}
			fm, Z, _, _, err := lmc.Features(ctx, ds.X, spec, y, c.learner != "knn")
			if err != nil {
				t.Fatal(err)
			}
			Zt, err := fm.Features(ctx, newX)
			if err != nil {
				t.Fatal(err)
			}
			var P, D *mat.Dense
			if c.learner == "svm" {
				m, err := pipeline.LandmarkSVMWith(ctx, Z, y, svm.Classifier{C: 1, Probability: true, Shuffle: svm.ShuffleLIBSVM})
				if err != nil {
					t.Fatal(err)
				}
				P, _ = m.Probabilities(nil, Z)
				Pt, _ := m.Probabilities(nil, Zt)
				D, _ = m.Decision(nil, Z)
				Dt, _ := m.Decision(nil, Zt)
				P, D = stackRows(P, Pt), stackRows(D, Dt)
			} else {
				m, err := pipeline.LandmarkKNN(ctx, Z, y, 5, spec)
				if err != nil {
					t.Fatal(err)
				}
				P, _ = m.Probabilities(ctx, nil, knn.Points(stackRows(Z, Zt)))
			}
			if diff := maxDiff(P, res.Proba); diff > 1e-12 {
				t.Errorf("%s: probabilities %.3g from the learner's on the features", name, diff)
			}
			if D != nil {
				if diff := maxDiff(D, res.Decision); diff > 1e-12 {
					t.Errorf("%s: decision values %.3g from the learner's on the features", name, diff)
				}
			}
		}
		p, err := res.Pipeline()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := p.Save(&buf); err != nil {
			t.Fatal(err)
		}
		q, err := pipeline.Load(&buf, "m.arbor")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w := pipeline.Want{Proba: c.proba, Decision: c.decision}
		got, err := q.PredictWant(ctx, newX, w)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cols := q.DecisionColumns(); c.decision && len(cols) != 3 {
			t.Errorf("%s: %d decision columns named", name, len(cols))
		}
		for i := range 30 {
			if got.Labels[i] != res.Labels[n+i] {
				t.Errorf("%s: test row %d: loaded label %d, the fit's %d", name, i, got.Labels[i], res.Labels[n+i])
			}
		}
		if c.proba {
			if diff := maxDiff(got.Proba, res.Proba.Slice(n, n+30, 0, 3)); diff > 1e-12 {
				t.Errorf("%s: loaded model's probabilities %.3g from the fit's", name, diff)
			}
		}
		if c.decision {
			if diff := maxDiff(got.Decision, res.Decision.Slice(n, n+30, 0, 3)); diff > 1e-12 {
				t.Errorf("%s: loaded model's decision values %.3g from the fit's", name, diff)
			}
		}
		// What the model cannot give.
		if !c.decision {
			if _, err := q.PredictWant(ctx, newX, pipeline.Want{Decision: true}); !errors.Is(err, pipeline.ErrOutput) {
				t.Errorf("%s: decision values: %v, want ErrOutput", name, err)
			}
		}
		if !c.proba {
			if _, err := q.PredictWant(ctx, newX, pipeline.Want{Proba: true}); !errors.Is(err, pipeline.ErrOutput) {
				t.Errorf("%s: probabilities: %v, want ErrOutput", name, err)
			}
		}
	}
	for _, s := range []pipeline.Settings{
		{Kernel: "rbf:0.5", Learner: "linsvm", Landmarks: M, Proba: true},
		{Kernel: "rbf:0.5", Learner: "knn", Landmarks: M, Decision: true},
		{Learner: "lp", Landmarks: M, Decision: true},
	} {
		if _, err := pipeline.Fit(ctx, s, ds, nil); !errors.Is(err, pipeline.ErrOutput) {
			t.Errorf("%s proba %v decision %v: %v, want ErrOutput", s.Learner, s.Proba, s.Decision, err)
		}
	}
	// An SVM fitted without its sigmoids has no probabilities.
	res, err := pipeline.Fit(ctx, pipeline.Settings{Kernel: "rbf:0.5", Landmarks: M}, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := res.Pipeline()
	if _, err := p.PredictWant(ctx, newX, pipeline.Want{Proba: true}); !errors.Is(err, pipeline.ErrOutput) {
		t.Errorf("landmark SVM without Platt sigmoids: %v, want ErrOutput", err)
	}
}

func stackRows(A, B *mat.Dense) *mat.Dense {
	var out mat.Dense
	out.Stack(A, B)
	return &out
}

func maxDiff(A, B mat.Matrix) float64 {
	r, c := A.Dims()
	if rb, cb := B.Dims(); rb != r || cb != c {
		return math.Inf(1)
	}
	w := 0.0
	for i := range r {
		for j := range c {
			w = max(w, math.Abs(A.At(i, j)-B.At(i, j)))
		}
	}
	return w
}

// TestLandmarkProbaCost: Cost counts a landmark run's outputs, a float64
// per row (training and test) and column — k probabilities, k(k−1)/2
// one-vs-one decision values for the SVM, k for linsvm — and, for the
// SVM's Platt sigmoids, the cross-validation folds' copies of the l
// labelled rows' M features; nothing when neither is asked for.
func TestLandmarkProbaCost(t *testing.T) {
	sh := pipeline.Shape{Rows: 10000, Labeled: 300, Features: 8, Classes: 4, Test: 2000}
	const M = 200
	n, k, l := 12000.0, 4.0, 300.0
	for _, c := range []struct {
		learner, kernel string
		params          map[string]string
		proba, decision bool
		want            float64
	}{
		{"svm", "rbf:1", nil, true, true, 8*n*(k+k*(k-1)/2) + 8*l*M},
		{"svm", "rbf:1", nil, false, true, 8 * n * k * (k - 1) / 2},
		{"linsvm", "rbf:1", nil, false, true, 8 * n * k},
		{"knn", "rbf:1", nil, true, false, 8 * n * k},
		{"lp", "", nil, true, false, 8 * n * k},
		{"spreading", "", nil, true, false, 8 * n * k},
		{"spreading", "", map[string]string{"affinity": "knn:7"}, true, false, 8 * n * k}, // the kNN graph of all rows
	} {
		s := pipeline.Settings{Learner: c.learner, Kernel: c.kernel, Params: c.params, Landmarks: M}
		base, err := pipeline.Cost(s, sh)
		if err != nil {
			t.Fatal(err)
		}
		s.Proba, s.Decision = c.proba, c.decision
		with, err := pipeline.Cost(s, sh)
		if err != nil {
			t.Fatal(err)
		}
		if got := with.Bytes - base.Bytes; math.Abs(got-c.want) > 1e-6*c.want {
			t.Errorf("%s proba %v decision %v: %.0f more bytes, want %.0f", c.learner, c.proba, c.decision, got, c.want)
		}
	}
}
