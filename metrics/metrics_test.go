package metrics

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

type fixtures struct {
	Cases []struct {
		YTrue         []int       `json:"y_true"`
		YPred         []int       `json:"y_pred"`
		Classes       int         `json:"classes"`
		Accuracy      float64     `json:"accuracy"`
		Confusion     [][]float64 `json:"confusion"`
		Precision     []float64   `json:"precision"`
		Recall        []float64   `json:"recall"`
		F1            []float64   `json:"f1"`
		Support       []int       `json:"support"`
		ARI           float64     `json:"ari"`
		NMI           float64     `json:"nmi"`
		Pairs         [4]int64    `json:"pairs"`
		Misclassified int         `json:"misclassified"`
	} `json:"cases"`
	Assign []struct {
		Cost    [][]float64 `json:"cost"`
		Optimum float64     `json:"optimum"`
	} `json:"assign"`
	Breakeven []struct {
		Scores   [][]float64 `json:"scores"`
		Relevant [][]int     `json:"relevant"`
		PerClass []float64   `json:"per_class"`
		Macro    float64     `json:"macro"`
		Micro    float64     `json:"micro"`
	} `json:"breakeven"`
}

func load(t *testing.T) fixtures {
	t.Helper()
	b, err := os.ReadFile("testdata/fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	var f fixtures
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// Tolerance 1e-12: the same arithmetic as scikit-learn up to summation order.
const tol = 1e-12

func close(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

func TestAgainstSklearn(t *testing.T) {
	f := load(t)
	for ci, c := range f.Cases {
		acc, err := Accuracy(c.YTrue, c.YPred)
		if err != nil || !close(acc, c.Accuracy) {
			t.Errorf("case %d: accuracy %v, %v; want %v", ci, acc, err, c.Accuracy)
		}
		cm, err := Confusion(nil, c.YTrue, c.YPred, c.Classes)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(cm, mat.NewDense(c.Classes, c.Classes, flat(c.Confusion))) {
			t.Errorf("case %d: confusion differs", ci)
		}
		prf, err := PRF(c.YTrue, c.YPred, c.Classes)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < c.Classes; k++ {
			if !close(prf.Precision[k], c.Precision[k]) || !close(prf.Recall[k], c.Recall[k]) ||
				!close(prf.F1[k], c.F1[k]) || prf.Support[k] != c.Support[k] {
				t.Errorf("case %d class %d: P/R/F1/S = %v %v %v %v; want %v %v %v %v", ci, k,
					prf.Precision[k], prf.Recall[k], prf.F1[k], prf.Support[k],
					c.Precision[k], c.Recall[k], c.F1[k], c.Support[k])
			}
		}
		ari, err := ARI(c.YTrue, c.YPred)
		if err != nil || !close(ari, c.ARI) {
			t.Errorf("case %d: ARI %v, %v; want %v", ci, ari, err, c.ARI)
		}
		nmi, err := NMI(c.YTrue, c.YPred)
		if err != nil || !close(nmi, c.NMI) {
			t.Errorf("case %d: NMI %v, %v; want %v", ci, nmi, err, c.NMI)
		}
		p, err := PairCounts(c.YTrue, c.YPred)
		if err != nil || [4]int64{p.TP, p.FP, p.FN, p.TN} != c.Pairs {
			t.Errorf("case %d: pairs %+v, %v; want %v", ci, p, err, c.Pairs)
		}
		mis, match, err := Misclassified(c.YTrue, c.YPred)
		if err != nil || mis != c.Misclassified {
			t.Errorf("case %d: misclassified %d, %v; want %d", ci, mis, err, c.Misclassified)
		}
		// the matching accounts for exactly the correctly classified rows
		hit := 0
		for i, cl := range c.YPred {
			if cls, ok := match[cl]; ok && cls == c.YTrue[i] {
				hit++
			}
		}
		if hit != len(c.YTrue)-mis {
			t.Errorf("case %d: matching covers %d rows, want %d", ci, hit, len(c.YTrue)-mis)
		}
	}
}

func flat(a [][]float64) []float64 {
	var out []float64
	for _, r := range a {
		out = append(out, r...)
	}
	return out
}

func TestAssignAgainstSciPy(t *testing.T) {
	for i, a := range load(t).Assign {
		col, err := Assign(a.Cost)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		sum := 0.0
		for r, c := range col {
			if seen[c] {
				t.Fatalf("problem %d: column %d used twice", i, c)
			}
			seen[c] = true
			sum += a.Cost[r][c]
		}
		if math.Abs(sum-a.Optimum) > 1e-9 {
			t.Errorf("problem %d: cost %v, scipy linear_sum_assignment %v", i, sum, a.Optimum)
		}
	}
}

func TestBreakeven(t *testing.T) {
	for i, b := range load(t).Breakeven {
		n, c := len(b.Scores), len(b.Scores[0])
		got, err := Breakeven(mat.NewDense(n, c, flat(b.Scores)), b.Relevant)
		if err != nil {
			t.Fatal(err)
		}
		if !close(got.Micro, b.Micro) || !close(got.Macro, b.Macro) {
			t.Errorf("set %d: micro/macro %v/%v, want %v/%v", i, got.Micro, got.Macro, b.Micro, b.Macro)
		}
		for k := range b.PerClass {
			if !close(got.PerClass[k], b.PerClass[k]) {
				t.Errorf("set %d class %d: %v want %v", i, k, got.PerClass[k], b.PerClass[k])
			}
		}
	}
}

// Closed forms worked by hand.
func TestBreakevenByHand(t *testing.T) {
	// class 0: relevant rows 0 and 2; ranking 0 (0.9), 1 (0.8), 2 (0.7), 3 (0.1):
	// top 2 = {0, 1} -> 1 hit -> BEP 0.5. class 1: relevant row 3 only, top 1 = row 3 -> 1.
	S := mat.NewDense(4, 2, []float64{0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.1, 0.95})
	got, err := Breakeven(S, [][]int{{0}, {}, {0}, {1}})
	if err != nil {
		t.Fatal(err)
	}
	if got.PerClass[0] != 0.5 || got.PerClass[1] != 1 || got.Macro != 0.75 {
		t.Errorf("got %+v", got)
	}
	// micro: pooled scores 0.95(r) 0.9(r) 0.8 0.7(r) ...; R = 3, top 3 has 2 relevant.
	if math.Abs(got.Micro-2.0/3) > 1e-15 {
		t.Errorf("micro %v want 2/3", got.Micro)
	}
	// ties: all scores equal, 1 relevant of 4 -> expected precision at 1 = 1/4.
	got, _ = Breakeven(mat.NewDense(4, 1, []float64{1, 1, 1, 1}), [][]int{{}, {0}, {}, {}})
	if got.PerClass[0] != 0.25 {
		t.Errorf("tied BEP %v want 0.25", got.PerClass[0])
	}
}

func TestPerfectAndSpecialCases(t *testing.T) {
	a := []int{0, 0, 1, 1, 2, 2}
	b := []int{5, 5, 3, 3, -1, -1} // a relabelling
	if v, _ := ARI(a, b); v != 1 {
		t.Errorf("ARI of a relabelling %v", v)
	}
	if v, _ := NMI(a, b); math.Abs(v-1) > 1e-15 {
		t.Errorf("NMI of a relabelling %v", v)
	}
	one := []int{4, 4, 4, 4, 4, 4}
	if v, _ := NMI(one, one); v != 1 {
		t.Errorf("NMI single clusters %v want 1", v)
	}
	if v, _ := NMI(a, one); v != 0 {
		t.Errorf("NMI vs single cluster %v want 0", v)
	}
	// noise is never matched: two noise points count as misclassified
	mis, _, _ := Misclassified(a, b)
	if mis != 2 {
		t.Errorf("misclassified with noise = %d, want 2", mis)
	}
	p, _ := PairCounts(a, one)
	if p.TP != 3 || p.FP != 12 || p.FN != 0 || p.TN != 0 || p.TPR() != 1 || p.FPR() != 1 {
		t.Errorf("pairs %+v", p)
	}
	// more clusters than classes
	mis, _, _ = Misclassified([]int{0, 0, 0, 1, 1, 1}, []int{0, 0, 1, 2, 2, 3})
	if mis != 2 {
		t.Errorf("misclassified = %d want 2", mis)
	}
}

func TestBadInput(t *testing.T) {
	if _, err := Accuracy([]int{0, 1}, []int{0}); !errors.Is(err, ErrLength) {
		t.Errorf("length: %v", err)
	}
	if _, err := Accuracy(nil, nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v", err)
	}
	if _, err := Accuracy([]int{-1, 0}, []int{0, 0}); !errors.Is(err, ErrLabel) {
		t.Errorf("negative true: %v", err)
	}
	if _, err := Confusion(nil, []int{0, 3}, []int{0, 1}, 2); !errors.Is(err, ErrLabel) {
		t.Errorf("class out of range: %v", err)
	}
	if _, err := Confusion(mat.NewDense(3, 3, nil), []int{0, 1}, []int{0, 1}, 2); !errors.Is(err, ErrLength) {
		t.Errorf("dst shape: %v", err)
	}
	if _, err := PRF([]int{0, 1}, []int{0, -1}, 0); !errors.Is(err, ErrLabel) {
		t.Errorf("negative prediction: %v", err)
	}
	if _, err := Breakeven(mat.NewDense(2, 2, []float64{0, math.NaN(), 1, 1}), [][]int{{0}, {1}}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN score: %v", err)
	}
	if _, err := Breakeven(mat.NewDense(2, 2, nil), [][]int{{0}}); !errors.Is(err, ErrLength) {
		t.Errorf("rows: %v", err)
	}
	if _, err := Breakeven(mat.NewDense(2, 2, nil), [][]int{{0}, {2}}); !errors.Is(err, ErrLabel) {
		t.Errorf("bad class: %v", err)
	}
	if _, err := Breakeven(mat.NewDense(2, 2, nil), [][]int{{}, {}}); !errors.Is(err, ErrEmpty) {
		t.Errorf("no relevant: %v", err)
	}
	if _, err := Assign([][]float64{{1, 2}, {3}}); !errors.Is(err, ErrLength) {
		t.Errorf("ragged: %v", err)
	}
	if _, err := Assign([][]float64{{1}, {2}}); !errors.Is(err, ErrLength) {
		t.Errorf("m > M: %v", err)
	}
	if _, err := Assign([][]float64{{math.Inf(1)}}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("inf cost: %v", err)
	}
	if _, _, err := Misclassified([]int{0, -1}, []int{0, 0}); !errors.Is(err, ErrLabel) {
		t.Errorf("negative class: %v", err)
	}
	if _, err := ARI([]int{0}, []int{0, 1}); !errors.Is(err, ErrLength) {
		t.Errorf("ARI length: %v", err)
	}
}
