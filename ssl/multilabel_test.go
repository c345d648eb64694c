package ssl

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/propagate"
	"gonum.org/v1/gonum/mat"
)

// TestReutersBEPFixture: soft kNN breakeven points on reuters10 (paper 002
// Table 2's protocol: the 626 training documents labelled, the 229 test
// documents scored) equal the NumPy/scikit-learn reference
// (testdata/gen_reuters_bep.py) to rounding: the rankings are the same, so
// only the last bits of the similarity-weighted scores may differ.
func TestReutersBEPFixture(t *testing.T) {
	b, err := os.ReadFile("testdata/reuters_bep.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Cases []struct {
			Kernel, Weights string
			K               int
			Micro, Macro    float64
		}
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	d, err := dataset.Embedded("reuters10")
	if err != nil {
		t.Fatal(err)
	}
	splits, err := dataset.EmbeddedSplits("reuters10", 626)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ref.Cases {
		spec, err := kernel.ParseSpec(c.Kernel)
		if err != nil {
			t.Fatal(err)
		}
		res, err := BEPEval{Kernels: []kernel.Spec{spec}, Learners: []SetScorer{SoftKNN{knn.Classifier{K: c.K, Weights: c.Weights}}}}.
			Run(context.Background(), d.X, d.Sets, len(d.Classes), splits)
		if err != nil {
			t.Fatal(err)
		}
		r := res[0]
		if math.Abs(r.MicroBEP-c.Micro) > 1e-9 || math.Abs(r.MacroBEP-c.Macro) > 1e-9 || r.Total != 229 {
			t.Errorf("%s %s k=%d: micro/macro %.6f/%.6f on %d rows, reference %.6f/%.6f",
				c.Kernel, c.Weights, c.K, r.MicroBEP, r.MacroBEP, r.Total, c.Micro, c.Macro)
		}
	}
}

// TestSetPropagationStandardize: z-scoring the class columns keeps every
// per-class ranking (macro unchanged) and gives each column mean 0 and
// standard deviation 1 over the hidden rows.
func TestSetPropagationStandardize(t *testing.T) {
	ctx := context.Background()
	d, _ := dataset.Embedded("reuters10")
	splits, _ := dataset.EmbeddedSplits("reuters10", 626)
	specs, err := kernel.ParseSpecs("linear")
	if err != nil {
		t.Fatal(err)
	}
	lp := propagate.Propagation{Affinity: propagate.Affinity{Kind: propagate.RBF, Gamma: 1}, Method: propagate.Closed}
	res, err := BEPEval{Kernels: specs, Learners: []SetScorer{SetPropagation{Settings: lp}, SetPropagation{Settings: lp, Standardize: true}}}.
		Run(ctx, d.X, d.Sets, 10, splits)
	if err != nil {
		t.Fatal(err)
	}
	raw, z := res[0], res[1]
	if math.Abs(raw.MacroBEP-z.MacroBEP) > 1e-12 {
		t.Errorf("macro changed: %v → %v", raw.MacroBEP, z.MacroBEP)
	}
	if !(z.MicroBEP > raw.MicroBEP+0.3) {
		t.Errorf("micro %v → %v: standardising should put the classes on one scale", raw.MicroBEP, z.MicroBEP)
	}
	F := mat.NewDense(4, 2, []float64{9, 1, 1, 2, 2, 4, 3, 6})
	standardizeColumns(F, [][]int{{0}, nil, nil, nil})
	for j := 0; j < 2; j++ {
		var s, q float64
		for i := 1; i < 4; i++ {
			s += F.At(i, j)
			q += F.At(i, j) * F.At(i, j)
		}
		if math.Abs(s) > 1e-12 || math.Abs(q/3-1) > 1e-12 {
			t.Errorf("column %d: sum %v, mean square %v", j, s, q/3)
		}
	}
	if math.Abs(F.At(0, 0)-(9-2)/math.Sqrt(2.0/3)) > 1e-12 {
		t.Errorf("labelled row: %v", F.At(0, 0))
	}
}

func TestBEPEvalErrors(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	specs, _ := kernel.ParseSpecs("linear")
	ln := []SetScorer{SoftKNN{knn.Classifier{K: 1}}}
	for name, c := range map[string]struct {
		sets   [][]int
		splits [][]int
	}{
		"row without class":  {[][]int{{0}, nil, {1}, {0}}, [][]int{{0, 2}}},
		"class out of range": {[][]int{{0}, {5}, {1}, {0}}, [][]int{{0, 2}}},
		"no splits":          {[][]int{{0}, {1}, {1}, {0}}, nil},
		"split out of range": {[][]int{{0}, {1}, {1}, {0}}, [][]int{{0, 7}}},
	} {
		if _, err := (BEPEval{Kernels: specs, Learners: ln}).Run(context.Background(), X, c.sets, 2, c.splits); !errors.Is(err, ErrSplit) {
			t.Errorf("%s: err = %v, want ErrSplit", name, err)
		}
	}
}
